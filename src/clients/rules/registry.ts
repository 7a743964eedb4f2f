/**
 * The client rule kinds, in one table: a new kind is its module and a row here. Presets name
 * kinds by id; the catalog runs the fact extractors of the selected kinds while it parses.
 *
 * @module
 */
import type { FactExtractor, ParsedRule, RuleKind } from "./kind.ts";
import { hideAppOnly } from "./hide_app_only.ts";
import { maxNameLength } from "./max_name_length.ts";
import { maxPages } from "./max_pages.ts";
import { maxQualifiedNameLength } from "./max_qualified_name_length.ts";
import { maxTools } from "./max_tools.ts";
import { nameCharacters } from "./name_characters.ts";
import { nameCollision } from "./name_collision.ts";

export { SCHEME_KEEPS } from "./name_collision.ts";
import { schemaDescriptionNotString } from "./schema_description_not_string.ts";
import { schemaInvalid } from "./schema_invalid.ts";
import { schemaRootComposition } from "./schema_root_composition.ts";
import { schemaRootNotObject } from "./schema_root_not_object.ts";
import { schemaUnresolvableRef } from "./schema_unresolvable_ref.ts";
import { schemaInvalid2020 } from "./schema_invalid_2020_12.ts";
import { schemaTupleItems } from "./schema_tuple_items.ts";
import { outputSchemaInvalid } from "./output_schema_invalid.ts";
import { outputSchemaUnknownType } from "./output_schema_unknown_type.ts";
import { outputSchemaNotObject } from "./output_schema_not_object.ts";
import { schemaDialect } from "./schema_dialect.ts";
import { outputSchemaDialect } from "./output_schema_dialect.ts";
import { builtinName } from "./builtin_name.ts";
import { apiNameLength } from "./api_name_length.ts";
import { apiMaxTools } from "./api_max_tools.ts";

/** Every rule kind, by id, in the order rules are listed in docs. */
export const RULE_KINDS = {
  "max-tools": maxTools,
  "max-pages": maxPages,
  "max-name-length": maxNameLength,
  "max-qualified-name-length": maxQualifiedNameLength,
  "name-characters": nameCharacters,
  "hide-app-only": hideAppOnly,
  "schema-root-composition": schemaRootComposition,
  "schema-root-not-object": schemaRootNotObject,
  "schema-invalid": schemaInvalid,
  "schema-unresolvable-ref": schemaUnresolvableRef,
  "schema-description-not-string": schemaDescriptionNotString,
  "name-collision": nameCollision,
  "schema-invalid-2020-12": schemaInvalid2020,
  "schema-tuple-items": schemaTupleItems,
  "schema-dialect": schemaDialect,
  "output-schema-invalid": outputSchemaInvalid,
  "output-schema-unknown-type": outputSchemaUnknownType,
  "output-schema-not-object": outputSchemaNotObject,
  "output-schema-dialect": outputSchemaDialect,
  "builtin-name": builtinName,
  "api-name-length": apiNameLength,
  "api-max-tools": apiMaxTools,
} as const satisfies Readonly<Record<string, RuleKind>>;

/** A rule kind's id: a key of {@linkcode RULE_KINDS}. */
export type RuleKindId = keyof typeof RULE_KINDS;

/** The rule kinds' ids, in table order. */
export const RULE_KIND_IDS = Object.keys(RULE_KINDS) as [RuleKindId, ...RuleKindId[]];

/** The kind of a validated rule. */
export const kindOf = (rule: Pick<ParsedRule, "id">): RuleKind => RULE_KINDS[rule.id as RuleKindId];

/** The fact extractors `rules` need, each once. */
export function extractorsFor(rules: readonly Pick<ParsedRule, "id">[]): FactExtractor[] {
  const extractors = new Map<string, FactExtractor>();
  for (const rule of rules) {
    const fact = kindOf(rule).fact;
    if (fact) extractors.set(fact.id, fact);
  }
  return [...extractors.values()];
}

/** Loads what applying `rules` and extracting their facts needs (validators, engines). */
export async function prepareRules(rules: readonly Pick<ParsedRule, "id">[]): Promise<void> {
  const kinds = new Set(rules.map(kindOf));
  await Promise.all([...kinds].flatMap((kind) => [kind.prepare?.(), kind.fact?.prepare?.()]));
}
