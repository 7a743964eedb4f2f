/** A validator for SARIF 2.1.0 logs, from the OASIS JSON Schema (draft-04). */
import sarifSchema from "@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json" with {
  type: "json",
};
import AjvDraft04 from "ajv-draft-04";

/** A compiled validator: whether a value is valid; on false, `errors` says why. */
export type Validator = ((value: unknown) => boolean) & { errors?: unknown };

// deno-lint-ignore no-explicit-any
const Ajv = AjvDraft04 as any;

/** Whether `log` is valid SARIF 2.1.0; on false, `validateSarif.errors` says why. */
export const validateSarif: Validator = new Ajv({
  strict: false,
  validateFormats: false,
  unicodeRegExp: false, // the schema has a pattern that is invalid with the u flag
}).compile(sarifSchema);
