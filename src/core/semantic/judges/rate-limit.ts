// A token bucket in front of the judge: bursts pass, a sustained flood is refused (and the call
// falls back to the deterministic verdict) instead of queueing behind a paid or local model.
import { JudgeError, type Judge, type JudgeReply, type JudgeRequest } from './types';

export interface RateLimit {
  /** Calls allowed at once after a quiet spell. */
  burst: number;
  /** Calls regained per second. */
  perSecond: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { burst: 20, perSecond: 5 };

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly limit: RateLimit = DEFAULT_RATE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.updatedAt = now();
  }

  /** Takes a token if one is there. */
  take(): boolean {
    const now = this.now();
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.limit.burst, this.tokens + elapsed * this.limit.perSecond);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export class RateLimitedJudge implements Judge {
  readonly name: string;

  constructor(
    private readonly inner: Judge,
    private readonly bucket: TokenBucket,
    private readonly limit: RateLimit = DEFAULT_RATE_LIMIT,
  ) {
    this.name = inner.name;
  }

  ask(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply> {
    if (!this.bucket.take()) {
      return Promise.reject(
        new JudgeError(
          'rate-limited',
          `judge calls are limited to ${this.limit.perSecond} per second (bursts of ${this.limit.burst})`,
        ),
      );
    }
    return this.inner.ask(request, signal);
  }

  close(): Promise<void> {
    return this.inner.close?.() ?? Promise.resolve();
  }
}
