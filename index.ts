/** mcpspec's programmatic API: schema-derived arbitraries, the server suite engine and its catalogue. */
export * from './arbitraries/index.js';
export { runServerSuite, type RunResult, type TargetSpec, type EngineOptions, type CheckResult, type Finding } from './runner/engine.js';
export { catalogue, type CatalogueEntry } from './suites/catalogue.js';
export { buildReport, exitCodeOf, type Report, type Summary } from './reports/report.js';
