// Defaults that the loader and the loosening classifier share.
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 120;
export const DEFAULT_LOG_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_LOG_KEEP = 5;
// About a thousand times what an ordinary call takes, and far below the shortest hook timeout an
// agent gives Warden (60 s by default): an overrun is answered as unread long before the agent gives up.
export const DEFAULT_DETERMINISTIC_BUDGET_MS = 2000;
