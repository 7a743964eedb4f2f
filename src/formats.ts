/**
 * The report formats.
 *
 * @module
 */

/** Report formats, in the order help lists them. */
export const FORMATS = ["text", "json", "github", "junit", "sarif"] as const;

/** A report format. */
export type Format = typeof FORMATS[number];

/** Whether `value` names a report format. */
export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}
