/**
 * The formats' own options (`--sarif-location`), each declared once: its name, help, how its
 * text is read, and (for a fleet) its value from the config file. A format's row of the
 * formats' table (`mod.ts`) names its options; the command line's help, parsing and
 * validation, the check that a report of a format that takes it is written, and the value its
 * renderer gets all follow from the declaration. Loaded before any renderer: it imports no
 * renderer.
 *
 * @module
 */
import { shown } from "../../printable.ts";

/** An option a format has of its own, with the type `T` of its value. */
export interface FormatOption<T = unknown> {
  /** The long name, without `--`. */
  readonly name: string;
  /** The value's placeholder in the help (`--sarif-location P[:L]`). */
  readonly value: string;
  /** docs/reference.md's spelling of the value, where the help abbreviates it for width. */
  readonly docValue?: string;
  /** Its line (and continuation lines) in the help. */
  readonly help: readonly string[];
  /** What it applies to, as a refusal names it: `a SARIF report`. */
  readonly report: string;
  /** The option's text → its value, or why it is refused (after `--NAME`, no period). */
  readonly parse: (text: string) => { readonly value: T } | { readonly problem: string };
  /** A fleet without the option: its value from the config file's path, when it gives one. */
  readonly fromConfig?: (path: string) => T | undefined;
}

/** The values of the formats' own options, by option name (plain data: a request carries it). */
export type FormatValues = Readonly<Record<string, unknown>>;

/** The value `values` holds for `option`, when one was given. */
export function valueOf<T>(
  values: FormatValues | undefined,
  option: FormatOption<T>,
): T | undefined {
  // Every value is `option.parse`'s or `option.fromConfig`'s (`withConfigValues`): of type T.
  return values?.[option.name] as T | undefined;
}

/**
 * `values` with, for a fleet (`configPath`), each of `options` not given set from the
 * config file's path, when that gives one.
 */
export function withConfigValues(
  values: FormatValues | undefined,
  options: readonly FormatOption[],
  configPath: string | undefined,
): FormatValues {
  const all: Record<string, unknown> = { ...values };
  if (configPath === undefined) return all;
  for (const option of options) {
    if (Object.hasOwn(all, option.name) || option.fromConfig === undefined) continue;
    const value = option.fromConfig(configPath);
    if (value !== undefined) all[option.name] = value;
  }
  return all;
}

/** Where every result of a SARIF log points: a path relative to the repository root, a line. */
export interface SarifLocation {
  /** A relative path with `/` between folders. */
  readonly path: string;
  /** A line number, 1 or more. */
  readonly line: number;
}

/** A relative path of `/`-separated segments, without `.` or `..` segments. */
const REPOSITORY_PATH = /^(?![A-Za-z][A-Za-z0-9+.-]*:)(?!\/)[\x21-\x7e]+$/;

/** `--sarif-location PATH[:LINE]`: a path relative to the repository root, and a line. */
export const SARIF_LOCATION: FormatOption<SarifLocation> = {
  name: "sarif-location",
  value: "P[:L]",
  docValue: "PATH[:LINE]",
  help: ["SARIF: the repository file (and line) every result points at"],
  report: "a SARIF report",
  parse: (text) => {
    const match = /^(.*?)(?::([1-9][0-9]{0,8}))?$/.exec(text)!;
    const path = match[1];
    const segments = path.split("/");
    if (
      path.length > 200 || !REPOSITORY_PATH.test(path) || path.includes("\\") ||
      segments.some((segment) => segment === "" || segment === "." || segment === "..")
    ) {
      return {
        problem:
          "must be PATH or PATH:LINE, PATH relative to the repository root with '/' between folders (no '..', no spaces)",
      };
    }
    return { value: { path, line: match[2] === undefined ? 1 : Number(match[2]) } };
  },
  // The config file itself, when it is a relative path that can be shown.
  fromConfig: (configPath) => {
    const path = configPath.replaceAll("\\", "/").replace(/^\.\//, "");
    if (shown(path) === undefined || path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
      return undefined;
    }
    if (path.split("/").some((part) => part === ".." || part === "")) return undefined;
    return { path, line: 1 };
  },
};
