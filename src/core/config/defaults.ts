// Defaults that the loader and the loosening classifier share.
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 120;
export const DEFAULT_LOG_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_LOG_KEEP = 5;
