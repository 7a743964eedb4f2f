/**
 * Writes the reports' JSON Schemas, generated from the zod schemas, to
 * src/report/guidance-report.schema.json and src/report/guidance-fleet.schema.json, which
 * `mcpeval schema guidance` and `mcpeval schema guidance-fleet` print without loading zod.
 * tests/schema_test.ts fails when the files and the zod schemas disagree.
 *
 *   deno task schema
 */
import { fleetJsonSchema } from "../src/report/fleet/schema.ts";
import { reportJsonSchema } from "../src/report/schema.ts";

for (
  const [file, schema] of [
    ["guidance-report.schema.json", reportJsonSchema()],
    ["guidance-fleet.schema.json", fleetJsonSchema()],
  ] as const
) {
  const path = new URL(`../src/report/${file}`, import.meta.url);
  await Deno.writeTextFile(path, JSON.stringify(schema, null, 2) + "\n");
}
