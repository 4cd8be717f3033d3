// Public surface of the runner: transports, recorder, sessions, the engine and its drivers.

export * from './recorder.js';
export * from './transport.js';
export { StdioTransport, type StdioTarget, type StdioTransportOptions } from './stdio-transport.js';
export { HttpTransport, describeNetworkError, type HttpTarget, type HttpTransportOptions } from './http-transport.js';
export { openSession, type OpenSessionOptions } from './session.js';
export { BaseSession, HandshakeError, DEFAULT_TIMEOUT_MS } from './base-session.js';
export { LegacySession, openLegacySession, type LegacySessionOptions } from './legacy-session.js';
export { ModernSession, openModernSession, type ModernSessionOptions } from './modern-session.js';
export { probeEra, type DetectEraOptions } from './detect-era.js';
export { runSuite, type Driver, type EngineOptions, type SelectionOptions, type ScheduleOptions, type ReportingOptions } from './engine.js';
export { ServerDriver, type ServerTarget, type ServerDriverOptions } from './server-driver.js';
export { runServerSuite, driverOptionsOf, engineOptionsOf, type ServerRunOptions } from './run-server.js';
export { liveCount } from './reaper.js';
