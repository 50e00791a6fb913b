// The package's programmatic API.

export { createApp, type AppOptions } from './app.js';
export { Clock, type ClockOptions, type ClockState } from './core/clock.js';
export { ApiError, ERROR_STATUS, type ErrorCode } from './core/errors.js';
export { DEFAULT_FIXTURES_DIR, loadFixtureDir } from './fixtures/files.js';
export { listen, type RunningServer } from './server.js';
export { createStore, type StoreSetup } from './setup.js';
export { FixtureError, type FixtureDocument, type FixtureInput } from './fixtures/fixture-doc.js';
export { Store, type StoreOptions } from './state/store.js';
export { ControlClient, ControlError, type AppRef, type IdsOption } from './control-client.js';
export { startMockServer, type MockServer, type MockServerOptions } from './testing.js';
export type { Fault, FaultSpec } from './admin/fault-rules.js';
export type { JournalEntry, JournalFilter, JournalWarning } from './admin/journal-log.js';
export type { ContractReportBody } from './admin/report.js';
export { WARNING_CODES, type WarningCode } from './core/warnings.js';
