/**
 * The client versions the lab has observed (`src/clients/observed/CLIENT@VERSION.json`), each
 * with the npm `dist.integrity` of the package it installed: `--observe NAME` installs the newest
 * of them and checks the installed package against this integrity. One row per committed
 * observation (tests/observe_recorded_test.ts checks both ways).
 *
 * @module
 */

/** Per lab client id: its observed versions, each with the package's recorded integrity. */
export const RECORDED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "claude-code": {
    "2.1.332":
      "sha512-tvSh6bLvEbd97APD31AnojOrRC3AmcRj5R8sF8QIQitu3x2ucOb1kKmTkGDw41kjva+CGJfpkt+wYouk6yv56Q==",
  },
  cline: {
    "3.0.65":
      "sha512-6P2jgsJHp+JRUzlGR6Rp4W/zAwXPg8ihC2M9ec/VgKS4nnlGCB8Ftn17StcIjYFYtocJRkU8UGUnKF69zhv40Q==",
  },
  codex: {
    "0.171.0":
      "sha512-1IOFzL2Xg86tLdw6kDo3GoKbkQENgQi7TI6rlEvN132R7ngSw7SNOIQoTcnKzSZZ8kf9N9GynCweSoaFbqk2Eg==",
  },
  "continue-cli": {
    "1.5.47":
      "sha512-gtpewV3RoIOD9dyTtKIBi1SY0VOHRu3Ehe7C/mmnswm+j34MPyrcQhQaWj/m+jdfGO4fNIKdrgGIlLso1ULDFw==",
  },
  "copilot-cli": {
    "1.0.102":
      "sha512-mv6cTWMhMILxg5ZDgqJ6UsnpPuySCPWOPbZVaO8lL0dpmjY3VD9ZhJr6DFcG7fhUXZv6OmvLdcRCa5MJ6hBI+Q==",
  },
  "gemini-cli": {
    "0.61.0":
      "sha512-dbQ9A0qBtFJNi6XBkHvfZ6Azpn6PNgH/P8h2MZ67RLlX8hSAVjup39CRWqdRxZv7YXIuhrFaytr8y0jKnkoxnQ==",
  },
  opencode: {
    "1.18.33":
      "sha512-58P1ffLRXiAY4QeoABqUjqf6DEzm1ihpovvn9Ad+oOLbLiwK/rf88wruT9IATJ7AtNjmi8iA7pC8tN4o5y799Q==",
  },
  "qwen-code": {
    "0.24.4":
      "sha512-pmexy/Nj+BKd3Un1ogqGQE8V4GJn5B6N9PQOrU1GH+lMR29kn6Bgf6YdbZa8hNIoTmAKT1LTPK+P8TibZRPPVg==",
  },
};

/** Orders dotted versions numerically (`1.0.102` after `1.0.99`; a pre-release before its release). */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = splitVersion(a);
  const [coreB, preB] = splitVersion(b);
  for (let i = 0; i < Math.max(coreA.length, coreB.length); i++) {
    const d = (coreA[i] ?? 0) - (coreB[i] ?? 0);
    if (d !== 0) return d;
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

function splitVersion(version: string): [number[], string | undefined] {
  const [core, ...pre] = version.split("+")[0].split("-");
  return [core.split(".").map((part) => Number(part) || 0), pre.length ? pre.join("-") : undefined];
}

/** The newest observed version of client `id`, or undefined when it has none. */
export function newestRecorded(id: string): string | undefined {
  const versions = Object.keys(RECORDED[id] ?? {});
  return versions.sort(compareVersions).at(-1);
}

/** The recorded integrity of `id@version`, or undefined when that version was not observed. */
export function recordedIntegrity(id: string, version: string): string | undefined {
  return Object.hasOwn(RECORDED, id) && Object.hasOwn(RECORDED[id], version)
    ? RECORDED[id][version]
    : undefined;
}
