/**
 * `name-collision`: the client rewrites each tool name (qualifies it with the server, replaces
 * characters, cuts long names) and keeps one tool per rewritten name. The value names the
 * scheme, from the table below (`gemini-cli`, `claude-code`, `opencode`); the rewritten names never leave
 * this module.
 *
 * @module
 */
import type { RuleKind } from "./kind.ts";

/** A client's rewriting, and which of the tools sharing a rewritten name it keeps. */
interface Scheme {
  readonly rewrite: (server: string, tool: string) => string;
  /** `first`: later tools are skipped; `last`: a later tool replaces the earlier one. */
  readonly keeps: "first" | "last";
}

const SCHEMES: Readonly<Record<string, Scheme>> = {
  // Gemini CLI generateValidName (mcp-tool.ts) and ToolRegistry.registerTool (overwrites).
  "gemini-cli": {
    rewrite: (server, tool) => {
      const joined = `${server}_${tool}`;
      let name = (joined.startsWith("mcp_") ? joined : `mcp_${joined}`)
        .replace(/[^a-zA-Z0-9_\-.:]/g, "_");
      if (/^[^a-zA-Z_]/.test(name)) name = `_${name}`;
      return name.length > 63 ? `${name.slice(0, 30)}...${name.slice(-30)}` : name;
    },
    keeps: "last",
  },
  // Claude Code 2.1.332, observed (src/clients/observed/claude-code@2.1.332.json): `get.user`
  // and `get_user` both become `mcp__SERVER__get_user`; the first listed is sent.
  "claude-code": {
    rewrite: (server, tool) => `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_"),
    keeps: "first",
  },
  // opencode 1.18.33, observed (src/clients/observed/opencode@1.18.33.json): `get.user` and
  // `get_user` both become `SERVER_get_user`; the later one listed is sent.
  "opencode": {
    rewrite: (server, tool) => `${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, "_"),
    keeps: "last",
  },
};

/** Which of the tools sharing a rewritten name each scheme keeps, by scheme name. */
export const SCHEME_KEEPS: Readonly<Record<string, "first" | "last">> = Object.fromEntries(
  Object.entries(SCHEMES).map(([name, scheme]) => [name, scheme.keeps]),
);

/** Tools whose rewritten name another tool of the server takes. */
export const nameCollision: RuleKind = {
  id: "name-collision",
  check: "its name, as the client rewrites it, is the same as an earlier tool's",
  effects: ["drop-tool"],
  validValue: (value) => typeof value === "string" && Object.hasOwn(SCHEMES, value),
  judge: (rule, tools, { server }) => {
    const scheme = SCHEMES[rule.value as string];
    const kept = new Map<string, string>();
    const lost: string[] = [];
    for (const tool of tools) {
      const rewritten = scheme.rewrite(server, tool.name);
      const earlier = kept.get(rewritten);
      if (earlier === undefined) kept.set(rewritten, tool.name);
      else if (scheme.keeps === "first") lost.push(tool.name);
      else {
        lost.push(earlier);
        kept.set(rewritten, tool.name);
      }
    }
    const order = new Map(tools.map((tool, index) => [tool.name, index]));
    return lost.sort((a, b) => order.get(a)! - order.get(b)!);
  },
};
