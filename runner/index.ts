// Public surface of the runner: transports, recorder, sessions.

export * from './types.js';
export * from './recorder.js';
export * from './transport.js';
export * from './jsonrpc.js';
export { StdioTransport, type StdioTarget, type StdioTransportOptions } from './stdio-transport.js';
export { HttpTransport, describeNetworkError, type HttpTarget, type HttpTransportOptions, type GetStream } from './http-transport.js';
export { encodeHeaderValue, decodeHeaderValue, isPlainHeaderValue, modernHeadersFor, applyHeaderOverrides } from './http-headers.js';
export * from './versions.js';
export * from './session.js';
export { BaseSession } from './base-session.js';
export { LegacySession, openLegacySession, type LegacySessionOptions } from './legacy-session.js';
export { ModernSession, openModernSession, modernMeta, withModernMeta, type ModernSessionOptions } from './modern-session.js';
export { detectEra, probeEra, MODERN_ERROR_CODES, type DetectEraOptions } from './detect-era.js';
export { liveCount } from './reaper.js';
