/**
 * Every YAML snippet in README.md and docs/*.md, and action.yml, parses (npm `yaml`, duplicate
 * keys refused); complete workflows pass @action-validator/cli; docs/ci.md's matrix recipe has
 * the shape that works (shards as matrix entries uploading their reports, a merge job with the
 * permissions upload-sarif needs); and the repository is named `mcpeval/guidance` everywhere.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Parser } from "commonmark";
import { parseDocument } from "yaml";
import { actionValidator } from "./_action.ts";
import { ROOT } from "./_cli.ts";

const VERSION = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).version as string;

/** Each documentation file's text, by its path from the root. */
async function documents(): Promise<Map<string, string>> {
  const paths = ["README.md"];
  for await (const item of Deno.readDir(join(ROOT, "docs"))) {
    if (item.isFile && item.name.endsWith(".md")) paths.push(`docs/${item.name}`);
  }
  const texts = new Map<string, string>();
  for (const path of paths.sort()) texts.set(path, await Deno.readTextFile(join(ROOT, path)));
  return texts;
}

/** The fenced `yaml` code blocks of a Markdown text. */
function yamlSnippets(markdown: string): string[] {
  const walker = new Parser().parse(markdown).walker();
  const snippets: string[] = [];
  for (let event; (event = walker.next());) {
    const node = event.node;
    if (event.entering && node.type === "code_block" && /^ya?ml\b/.test(node.info ?? "")) {
      snippets.push(node.literal ?? "");
    }
  }
  return snippets;
}

/** Parses YAML strictly: any error or warning fails, with where it is. */
function parseStrict(text: string, where: string): unknown {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  assert.deepEqual([...document.errors, ...document.warnings].map(String), [], where);
  return document.toJS();
}

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}

interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}

interface Workflow {
  on?: unknown;
  permissions?: Record<string, string>;
  jobs?: Record<string, Job>;
}

async function allSnippets(): Promise<{ where: string; value: unknown; text: string }[]> {
  const found = [];
  for (const [path, text] of await documents()) {
    for (const [index, snippet] of yamlSnippets(text).entries()) {
      const where = `${path}, YAML snippet ${index + 1}`;
      found.push({ where, value: parseStrict(snippet, where), text: snippet });
    }
  }
  return found;
}

Deno.test("docs: every YAML snippet and action.yml parse", async () => {
  const snippets = await allSnippets();
  assert.ok(snippets.length >= 5, `only ${snippets.length} YAML snippets found`);
  for (const { value, where } of snippets) assert.ok(value !== null && value !== undefined, where);
  parseStrict(await Deno.readTextFile(join(ROOT, "action.yml")), "action.yml");
});

Deno.test("docs: every complete workflow passes @action-validator/cli", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpeval-workflows-" });
  try {
    let checked = 0;
    for (const { value, text, where } of await allSnippets()) {
      const workflow = value as Workflow;
      if (typeof workflow !== "object" || !workflow.on || !workflow.jobs) continue;
      const path = join(dir, `workflow-${checked++}.yml`);
      await Deno.writeTextFile(path, text);
      const { code, stderr } = await actionValidator(path);
      assert.equal(code, 0, `${where}: ${stderr}`);
    }
    assert.ok(checked >= 1, "the matrix recipe is a complete workflow");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("docs/ci.md: the matrix recipe shards a config and merges the reports", async () => {
  const text = (await documents()).get("docs/ci.md")!;
  const recipes = yamlSnippets(text)
    .map((snippet, index) => parseStrict(snippet, `docs/ci.md, YAML snippet ${index + 1}`))
    .filter((value) =>
      Object.values((value as Workflow).jobs ?? {}).some((job) => job.strategy?.matrix?.shard)
    ) as Workflow[];
  assert.equal(recipes.length, 1, "one matrix recipe");
  const [recipe] = recipes;
  const jobs = Object.entries(recipe.jobs!);
  const [shardName, shardJob] = jobs.find(([, job]) => job.strategy?.matrix?.shard)!;
  const shards = shardJob.strategy!.matrix!.shard as string[];
  assert.ok(shards.length >= 2);
  assert.deepEqual(
    shards,
    shards.map((_, i) => `${i + 1}/${shards.length}`),
    "every shard I/N once",
  );

  const action = `mcpeval/guidance@v${VERSION}`;
  const run = shardJob.steps.find((step) => step.uses === action)!;
  assert.ok(run, `the shard job uses ${action}`);
  assert.ok(run.with!.config, "a config");
  assert.equal(run.with!.shard, "${{ matrix.shard }}");
  const upload = shardJob.steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
  assert.ok(upload, "each shard uploads its report");
  assert.match(upload.if!, /always\(\)|!cancelled\(\)/, "even when its servers fail");
  assert.match(upload.with!.path, /outputs\.json/);
  assert.match(
    upload.with!.name,
    /\$\{\{ (strategy\.job-index|matrix\.[a-z]+) \}\}/,
    "one name per shard",
  );

  const [, merge] = jobs.find(([, job]) => job !== shardJob)!;
  assert.deepEqual([merge.needs].flat(), [shardName]);
  assert.match(merge.if!, /always\(\)|!cancelled\(\)/, "the merge runs after failing shards");
  assert.equal(merge.permissions?.["security-events"], "write", "upload-sarif needs it");
  assert.ok(merge.permissions?.contents === "read");
  assert.ok(!shardJob.permissions?.["security-events"], "shards need no write permission");
  assert.ok(Object.values(recipe.permissions ?? {}).every((level) => level === "read"));
  const steps = merge.steps.map((step) => step.uses?.replace(/@.*/, ""));
  const download = steps.indexOf("actions/download-artifact");
  const merging = merge.steps.findIndex((step) => step.uses === action && step.with?.merge);
  const sarif = steps.indexOf("github/codeql-action/upload-sarif");
  assert.ok(download !== -1 && download < merging && merging < sarif, steps.join(", "));
  assert.match(merge.steps[sarif].with!.sarif_file, /outputs\.sarif/);
  assert.match(merge.steps[sarif].if!, /always\(\)|!cancelled\(\)/);
  assert.ok(
    merge.steps.some((step) =>
      step.uses?.startsWith("actions/upload-artifact@") &&
      /outputs\.junit/.test(step.with!.path)
    ),
    "the merge job keeps the JUnit report",
  );
});

Deno.test("docs: the repository is mcpeval/guidance everywhere, no placeholder left", async () => {
  const texts = await documents();
  texts.set("action.yml", await Deno.readTextFile(join(ROOT, "action.yml")));
  for (const [path, text] of texts) {
    for (const placeholder of [/MCPEVAL_REPO/, /owner\/mcpeval/i, /<owner>/i, /OWNER\/REPO/i]) {
      assert.doesNotMatch(text, placeholder, path);
    }
    for (const [, used] of text.matchAll(/uses: (mcpeval\/\S+)/g)) {
      assert.equal(used, `mcpeval/guidance@v${VERSION}`, path);
    }
    for (const [, repo] of text.matchAll(/--repo "?([^\s"]+)/g)) {
      assert.equal(repo, "mcpeval/guidance", path);
    }
  }
});
