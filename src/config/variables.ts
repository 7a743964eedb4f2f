/**
 * `${...}` variables in config values: `${VAR}`, `${VAR:-default}`, `${env:VAR}`,
 * `${userHome}` (from HOME), `${workspaceFolder}`, `${workspaceFolderBasename}`,
 * `${pathSeparator}` (`${/}`) and `${input:ID}`. Pure: values come through a scope, and a
 * value is never part of a problem.
 *
 * @module
 */
import { ENV_NAME, ENV_NAME_PART } from "../target.ts";

/** What an environment lookup found: a value, unset, or no permission to read it. */
export type EnvValue = string | undefined | typeof DENIED;

/** An environment variable mcpeval may not read (its `--allow-env` is missing). */
export const DENIED: unique symbol = Symbol("denied");

/** Where variables get their values. */
export interface VariableScope {
  /** An environment variable. */
  readonly env: (name: string) => EnvValue;
  /** A VS Code input: its `--input ID=ENV_VAR` variable looked up, or undefined without one. */
  readonly input: (id: string) => { readonly env: EnvValue } | undefined;
  /** The folder `${workspaceFolder}` names. */
  readonly workspaceFolder: string;
  /** `/` or `\`. */
  readonly pathSeparator: string;
}

/** One variable reference. */
export type Variable =
  | { readonly kind: "env"; readonly name: string; readonly fallback?: string }
  | { readonly kind: "input"; readonly id: string }
  | { readonly kind: "workspaceFolder" | "workspaceFolderBasename" | "pathSeparator" }
  | { readonly kind: "unsupported" };

/** Why a value could not be expanded, most fundamental first. */
export type ExpansionProblem =
  | "unsupported-variable"
  | "unresolved-input"
  | "unset-variable"
  | "denied";

/** An expanded value, or why it could not be. */
export type Expansion =
  | { readonly value: string }
  | { readonly problem: ExpansionProblem };

const REFERENCE = /\$\{([^}]*)\}/g;
const WITH_DEFAULT = new RegExp(`^(${ENV_NAME_PART}):-(.*)$`, "s");

/** The variable a `${body}` names. */
export function classify(body: string): Variable {
  switch (body) {
    case "workspaceFolder":
    case "workspaceFolderBasename":
    case "pathSeparator":
      return { kind: body };
    case "/":
      return { kind: "pathSeparator" };
    case "userHome":
      return { kind: "env", name: "HOME" };
  }
  const env = /^env:(.*)$/s.exec(body);
  if (env) return ENV_NAME.test(env[1]) ? { kind: "env", name: env[1] } : { kind: "unsupported" };
  const input = /^input:(.+)$/s.exec(body);
  if (input) return { kind: "input", id: input[1] };
  const withDefault = WITH_DEFAULT.exec(body);
  if (withDefault) return { kind: "env", name: withDefault[1], fallback: withDefault[2] };
  return ENV_NAME.test(body) ? { kind: "env", name: body } : { kind: "unsupported" };
}

/** Every variable `text` references, in order. */
export function variablesIn(text: string): Variable[] {
  return [...text.matchAll(REFERENCE)].map((match) => classify(match[1]));
}

const RANK: Record<ExpansionProblem, number> = {
  "unsupported-variable": 0,
  "unresolved-input": 1,
  "unset-variable": 2,
  "denied": 3,
};

/** The more fundamental of two problems. */
export function worse(a: ExpansionProblem, b: ExpansionProblem): ExpansionProblem {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Expands every variable in `text`; reports the most fundamental problem when one fails. */
export function expand(text: string, scope: VariableScope): Expansion {
  let problem: ExpansionProblem | undefined;
  const fail = (found: ExpansionProblem) => {
    problem = problem === undefined ? found : worse(problem, found);
    return "";
  };
  const fromEnv = (value: EnvValue, fallback?: string): string => {
    if (value === DENIED) return fail("denied");
    if (fallback !== undefined && (value === undefined || value === "")) return fallback;
    return value ?? fail("unset-variable");
  };
  const value = text.replaceAll(REFERENCE, (_, body: string) => {
    const variable = classify(body);
    switch (variable.kind) {
      case "env":
        return fromEnv(scope.env(variable.name), variable.fallback);
      case "input": {
        const given = scope.input(variable.id);
        return given === undefined ? fail("unresolved-input") : fromEnv(given.env);
      }
      case "workspaceFolder":
        return scope.workspaceFolder;
      case "workspaceFolderBasename":
        return scope.workspaceFolder.split(/[\\/]/).filter(Boolean).at(-1) ?? "";
      case "pathSeparator":
        return scope.pathSeparator;
      case "unsupported":
        return fail("unsupported-variable");
    }
  });
  return problem === undefined ? { value } : { problem };
}

/**
 * The environment variables `text` reads that are unset (no value, no default): names only.
 * An `${input:ID}` counts by its `--input` variable.
 */
export function unsetVariables(text: string, scope: VariableScope): string[] {
  return variablesIn(text).flatMap((variable) => {
    if (variable.kind === "env") {
      const value = scope.env(variable.name);
      const defaulted = variable.fallback !== undefined && (value === undefined || value === "");
      return value === undefined && !defaulted ? [variable.name] : [];
    }
    return [];
  });
}
