export { Http, backoffMs, sleep, type Exchange, type HttpOptions, type HttpStats, type RawResponse } from './http.js';
export { Redactor, REDACTED } from './redact.js';
export { Ledger, NotOwnedError, type LedgerEntry } from './ledger.js';
export { StoreClient, ReadOnlyViolation, envelope, snippet, type CallResult, type ClientOptions, type KeyChoice, type Pagination, type Rec } from './api.js';
