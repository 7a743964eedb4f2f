/**
 * The values of the formats' own options, which a request carries before any renderer is
 * loaded (the formats' table says which format takes which option).
 *
 * @module
 */

/** Where every result of a SARIF log points: a path relative to the repository root, a line. */
export interface SarifLocation {
  /** A relative path with `/` between folders. */
  readonly path: string;
  /** A line number, 1 or more. */
  readonly line: number;
}
