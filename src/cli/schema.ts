/**
 * `mcpeval schema guidance | guidance-fleet`: the JSON reports' JSON Schemas, as generated into
 * `src/report/` (`deno task schema`). A module of its own, so that `main.ts` can answer it
 * without loading the CLI.
 *
 * @module
 */

/** The schema names `mcpeval schema` takes. */
export const SCHEMA_NAMES = ["guidance", "guidance-fleet"] as const;

/** The text `mcpeval schema NAME` prints, or undefined for an unknown name. */
export async function schemaText(name: string): Promise<string | undefined> {
  if (name === "guidance") {
    const { default: schema } = await import("../report/guidance-report.schema.json", {
      with: { type: "json" },
    });
    return JSON.stringify(schema, null, 2) + "\n";
  }
  if (name === "guidance-fleet") {
    const { default: schema } = await import("../report/guidance-fleet.schema.json", {
      with: { type: "json" },
    });
    return JSON.stringify(schema, null, 2) + "\n";
  }
  return undefined;
}
