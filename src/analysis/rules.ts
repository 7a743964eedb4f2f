/**
 * The finding rules, in one table: each kind, whether it is a review candidate or a defect,
 * whether it fails the gate, and its one fixed hint.
 *
 * @module
 */

/** What a rule's findings are: review candidates never gate; defects do. */
export type FindingClass = "candidate" | "defect";

/** One rule. */
export interface Rule {
  /** Whether its findings are review candidates or defects. */
  readonly class: FindingClass;
  /** Whether one finding of this kind fails the run (exit 1). */
  readonly gates: boolean;
  /** The fixed hint every finding of this kind carries. */
  readonly hint: string;
}

/** Every finding kind with its rule. */
export const RULES = {
  "referenced-tool-unavailable": {
    class: "candidate",
    gates: false,
    hint:
      "The instructions of this profile name a tool that its catalog does not list; check the reference and explain any capability requirement in the instructions.",
  },
  "reference-cut-in-client": {
    class: "candidate",
    gates: false,
    hint:
      "The instructions of this profile name this tool past the cut its client makes (or in a code span the cut splits), so its model never sees the reference; move the reference to the start of the instructions, or shorten them.",
  },
  "tool-unreachable-in-client": {
    class: "candidate",
    gates: false,
    hint:
      "The client of this profile hides this tool from its model by one of its own rules (the finding's rule names which, and what it checks); change the tool so that the rule no longer applies to it, or accept that this client cannot reach it.",
  },
  "tool-cap-exceeded-in-client": {
    class: "candidate",
    gates: false,
    hint:
      "This catalog exceeds the tool cap of the client of this profile, which only warns about it (nothing is hidden by the cap); fewer tools may serve its model better.",
  },
  "tool-disabled-in-config": {
    class: "candidate",
    gates: false,
    hint:
      "The instructions of this profile name a tool that the config file's own tool filter hides from the model in every profile of this server; change the filter, or the instructions.",
  },
  "preset-disagrees-with-client": {
    class: "candidate",
    gates: false,
    hint:
      "This profile's client preset and the real client observed in the same run (--observe) disagree on whether its model receives this tool; the observation is what the client did: trust it, and refresh the preset (mcpeval lab) if it is out of date.",
  },
  "referenced-tool-unknown": {
    class: "candidate",
    gates: false,
    hint:
      "The instructions of this profile name something in backticks that no selected catalog lists; check for a typo, a removed tool, or a proxy that hides capability-dependent tools.",
  },
  "required-tool-unavailable": {
    class: "defect",
    gates: true,
    hint:
      "A required tool is missing from this profile's catalog; check the server's capability conditions or the --require-tool declaration.",
  },
  "baseline-tool-unavailable": {
    class: "defect",
    gates: true,
    hint:
      "A tool that this profile's catalog listed in the baseline is missing now; restore it, or refresh the baseline if the removal is intended.",
  },
} as const satisfies Record<string, Rule>;

/**
 * The hint of a `required-tool-unavailable` defect that has its own cause: the profile lists the
 * tool, and the config file's own tool filter (the defect's `rule`) hides it from the model in
 * every profile of the server. Nothing is missing from the catalog.
 */
export const FILTERED_REQUIRED_HINT =
  "A required tool is listed, but the config file's own tool filter hides it from the model in every profile of this server; change the filter, or the --require-tool declaration." as const;

/** A finding kind. */
export type FindingKind = keyof typeof RULES;

/** The finding kinds, in table order. */
export const FINDING_KINDS = Object.keys(RULES) as FindingKind[];

/** The kinds of one class. */
export type KindOf<C extends FindingClass> = {
  [K in FindingKind]: typeof RULES[K]["class"] extends C ? K : never;
}[FindingKind];

/**
 * A finding's fixed hint: its rule's, or {@linkcode FILTERED_REQUIRED_HINT} for a required tool
 * that a config file's filter hides (`filtered`).
 */
export function hintOf(kind: FindingKind, filtered: boolean): string {
  return kind === "required-tool-unavailable" && filtered
    ? FILTERED_REQUIRED_HINT
    : RULES[kind].hint;
}
