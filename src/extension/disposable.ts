// Lifetimes without vscode imports, so they are testable in plain node: an
// owner disposes what it registered, in reverse order, and anything
// registered after the owner died is disposed at once (never leaked).

export interface DisposableLike {
  dispose(): unknown;
}

export function toDisposable(dispose: () => unknown): DisposableLike {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      return dispose();
    },
  };
}

export class Disposable implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposed = false;

  constructor(private readonly onError: (message: string) => void = () => undefined) {}

  get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends DisposableLike>(item: T): T {
    if (this.disposed) {
      this.disposeOne(item);
      return item;
    }
    this.owned.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.owned.splice(0).reverse()) this.disposeOne(item);
  }

  private disposeOne(item: DisposableLike): void {
    try {
      const result = item.dispose();
      if (result instanceof Promise) result.catch((err: Error) => this.onError(`dispose failed: ${err.message}`));
    } catch (err) {
      this.onError(`dispose failed: ${(err as Error).message}`);
    }
  }
}

/** A named scope to register into from outside (the extension's lifetime, an endpoint's lifetime). */
export class DisposableScope extends Disposable {
  constructor(
    readonly name: string,
    onError?: (message: string) => void,
  ) {
    super(onError);
  }

  add<T extends DisposableLike>(item: T): T {
    return this._register(item);
  }
}
