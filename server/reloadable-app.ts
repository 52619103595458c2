// The app the engine answers with, replaceable while serving (`strand serve --watch`): a request
// is answered by the app current when it arrives, so requests in flight finish on the old one and
// later ones see the new. A swap that must change what lies under the apps (the store, reopened
// for a new schema) first holds new requests and waits until none is in flight; the held ones
// then go to the new app. Nothing is refused meanwhile.
import type { EngineApp } from "./front-door/engine.js";

export class ReloadableApp implements EngineApp {
  private inFlight = 0;
  private idle: (() => void) | null = null;
  private held: Promise<void> | null = null;

  constructor(private app: EngineApp) {}

  async fetch(request: Request, env: Parameters<EngineApp["fetch"]>[1]): Promise<Response> {
    while (this.held !== null) await this.held;
    this.inFlight++;
    try {
      return await this.app.fetch(request, env);
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.idle?.();
    }
  }

  /** Answers later requests with `app`. */
  swap(app: EngineApp): void {
    this.app = app;
  }

  /**
   * Holds new requests, waits for the ones in flight, runs `change` (which returns the app to
   * answer with from then on, or null to keep the current one), then lets the held requests go.
   */
  async exclusively<T>(change: () => Promise<{ app: EngineApp | null; value: T }>): Promise<T> {
    while (this.held !== null) await this.held;
    let release!: () => void;
    this.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
      this.idle = null;
      const { app, value } = await change();
      if (app !== null) this.app = app;
      return value;
    } finally {
      this.held = null;
      release();
    }
  }
}
