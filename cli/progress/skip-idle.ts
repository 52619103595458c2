// Startup reports every migration and index rebuild it runs, most of which have nothing to do
// (a new store's keyword index, a type without records): those should print nothing. A task is
// only started on the underlying sink once it advances.
import type { ProgressSink, ProgressTask } from "../../core/progress.js";

export function skipIdleTasks(sink: ProgressSink): ProgressSink {
  return {
    start(label, unit, total) {
      let task: ProgressTask | null = null;
      return {
        advance(n) {
          if (n <= 0) return;
          task ??= sink.start(label, unit, total);
          task.advance(n);
        },
        finish() {
          task?.finish();
        },
      };
    },
  };
}
