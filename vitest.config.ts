import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server end-to-end suites spawn processes and bind ports; keep files from starving each other on 2 cores.
    maxWorkers: 2,
  },
});
