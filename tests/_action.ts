/**
 * Test helper: GitHub Actions metadata and workflow files checked with @action-validator/cli, at
 * the version pinned in deno.json (the same one .ci/run uses).
 */
import { join } from "node:path";
import { DENO, ROOT } from "./_cli.ts";

const PINNED = (JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as {
  imports: Record<string, string>;
}).imports["@action-validator/cli"];

/**
 * Runs the validator on `path`: an action when it is named action.yml, else a workflow. Exit 0
 * when valid; 1 with the errors as JSON on stderr.
 */
export async function actionValidator(path: string): Promise<{ code: number; stderr: string }> {
  const output = await new Deno.Command(DENO, {
    // The validator reads its WebAssembly from Deno's npm cache.
    args: ["run", "--quiet", "--allow-read", "--allow-env", PINNED, path],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}
