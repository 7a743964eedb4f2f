/**
 * Writes the report's JSON Schema, generated from the zod schema, to
 * src/report/guidance-report.schema.json, which `mcpeval schema guidance` prints without
 * loading zod. tests/schema_test.ts fails when the file and the zod schema disagree.
 *
 *   deno task schema
 */
import { reportJsonSchema } from "../src/report/schema.ts";

const path = new URL("../src/report/guidance-report.schema.json", import.meta.url);
await Deno.writeTextFile(path, JSON.stringify(reportJsonSchema(), null, 2) + "\n");
