/**
 * Goose `config.yaml`: `extensions`, each `{type, cmd, args, envs, env_keys, uri, headers,
 * enabled}`; `type` is `stdio`, `streamable_http`, `sse` (legacy) or one of Goose's own
 * (`builtin`, `platform`, `frontend`, `inline_python`), which run inside Goose. `env_keys` name
 * variables Goose passes from its secret store or the environment: read from the environment.
 *
 * @module
 */
import { ENV_NAME } from "../../target.ts";
import { checkEntry, stringList, stringPairs, transportOf } from "../spec.ts";
import { type FormatModule, tableEntries } from "./format.ts";

/** The Goose shape. */
export const goose: FormatModule = {
  clients: "Goose config.yaml",
  format: "extensions",
  expected: "extensions (Goose YAML)",
  syntax: ["yaml"],
  table: (document) => document.value(["extensions"]) === undefined ? undefined : "extensions",
  entries: (document) => tableEntries(document, ["extensions"], "extensions"),
  entry: (value) => {
    const envs = stringPairs(value.envs);
    const keys = stringList(value.env_keys);
    const env = envs === undefined || keys === null || !(keys ?? []).every((k) => ENV_NAME.test(k))
      ? undefined
      : [...envs, ...(keys ?? []).map((name) => [name, `\${${name}}`] as const)];
    return checkEntry({
      disabled: value.enabled === false,
      transport: transportOf(value.type, ["streamable_http", "streamable-http", "http"]),
      command: value.cmd,
      args: value.args,
      env,
      url: value.uri,
      headers: stringPairs(value.headers),
    });
  },
};
