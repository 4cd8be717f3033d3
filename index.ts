/** mcpspec's programmatic API: schema-derived arbitraries, properties, the engine and its catalogue, the report builder. */
export * from './arbitraries/index.js';
export { runServerSuite, type ServerRunOptions } from './runner/run-server.js';
export { runSuite, type Driver, type EngineOptions, type SelectionOptions, type ScheduleOptions, type ReportingOptions } from './runner/engine.js';
export type { SafetyOptions, TimingOptions, GenerationOptions } from './suites/kit/scenario.js';
export type { ServerTarget } from './runner/server-driver.js';
export type { CheckResult, Finding, RunResult, RunEvent, TargetInfo } from './results/run.js';
export type { CheckRecord } from './results/check-record.js';
export { catalogue, CHECKS, type CatalogueEntry } from './suites/catalogue.js';
export { buildReport, exitCodeOf, type Report, type Summary } from './reports/report.js';
export { fuzz, describeSequence, type FuzzOptions, type FuzzResult, type FuzzFinding, type FuzzEvent } from './fuzz/server-campaign.js';
export type { StartCommand } from './runner/started-http.js';
export { replay, readRepro, parseRepro, writeRepro, ReproFormatError, type Repro, type ReplayOptions, type ReplayResult } from './fuzz/replay.js';
export { runSequence, type OracleId, type Observation, type SequenceOutcome } from './fuzz/run-sequence.js';
export { fuzzClient, replayClient, judgeClientRun, CLIENT_ORACLES, type ClientFuzzOptions, type ClientFuzzResult, type ClientFuzzFinding, type ClientRepro, type ClientReplayResult, type ClientObservation } from './fuzz/client-campaign.js';
export { clientAnswerPlanArbitrary, clientAnswerArbitrary, type ClientAnswer } from './arbitraries/client-answers.js';
export { fuzzSequenceArbitrary, describeFuzzStep, idTheme, ID_THEMES, type FuzzStep, type FuzzProfile } from './arbitraries/fuzz-sequences.js';
export { transportStepArbitrary, type TransportStep, type HeaderVariant } from './arbitraries/transport-steps.js';
export { sequenceArbitrary, stepArbitrary, toolArguments, declaredMethods, describeStep, unusualId, type Step, type TargetProfile, type IdStyle, type Variant } from './arbitraries/sequences.js';
