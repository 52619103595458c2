// The write loop every crash child runs: 8 lanes take the plan's operations in order, each one
// write; every acknowledgement (or error code) is printed as "<index> <json>" the moment the write
// resolves, so the parent knows exactly what was acknowledged when it sends SIGKILL.
export function runLanes(store, plan, perform, lanes = 8) {
  let next = 0;
  async function lane() {
    while (next < plan.length) {
      const i = next++;
      let line;
      try {
        line = JSON.stringify(await store.write((db) => perform(db, i, plan[i])));
      } catch (error) {
        line = JSON.stringify({ error: error.code ?? String(error) });
      }
      process.stdout.write(`${i} ${line}\n`);
    }
  }
  process.stdout.write("ready\n");
  for (let n = 0; n < lanes; n++) void lane();
}
