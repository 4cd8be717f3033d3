/** Public arbitraries API: schema-derived fast-check generators for MCP messages and any JSON Schema. */
export { messages, McpMessages, methodIndex, type MethodInfo, type MessageArbitraries, type MessageKind, type Direction } from './messages.js';
export { valid, nearValid, schemaArbitraries, definitionArbitraries, type SchemaArbitraries } from './schema-arbitraries.js';
export { type NearValid, type ViolationLabel, NotMutableError, confirms } from './near-valid.js';
export { UnsatisfiableSchemaError, type GenOptions } from './valid.js';
export { runProperty, evaluateCases, startCases, settleCases, shrinkFailure, type Started, type PropertyOptions, type PropertyOutcome, type Counterexample, type Evaluated } from './property.js';
export {
  loadSchema, loadSchemaFile, schemaFromObject, SchemaDocument, SchemaLookupError, SPEC_VERSIONS, VENDORED_SCHEMAS,
  type SpecVersion, type SchemaNode,
} from '../protocol/schema-registry.js';
export { sequenceArbitrary, stepArbitrary, toolArguments, declaredMethods, describeStep, unusualId, type Step, type TargetProfile, type IdStyle, type Variant, type SequenceTool } from './sequences.js';
export { compileDefinition, compileSchema, compileNodes, CompiledSchema } from './compiled.js';
export { Rng, type Draw } from './rng.js';
