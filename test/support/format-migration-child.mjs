// Child process for test/format-migration.test.ts and format2-migration.test.ts: migrates the
// older-format store at <data dir> in
// batches of <batch> keys and kills itself (SIGKILL, no cleanup) right after batch <kill after>
// has committed, so the test can open what an interrupted migration leaves.
// argv: <dist dir> <data dir> <batch> <kill after>
const [dist, dir, batch, killAfter] = process.argv.slice(2);
const { openDbs } = await import(`${dist}/runtime/store/dbs.js`);
const { migrateFormat } = await import(`${dist}/runtime/format/format-migration.js`);
const { silentProgress } = await import(`${dist}/core/progress.js`);
const dbs = openDbs(dir, undefined);
migrateFormat(dbs, silentProgress, {
  batch: Number(batch),
  onBatch: (n) => {
    if (n === Number(killAfter)) process.kill(process.pid, "SIGKILL");
  },
});
process.stdout.write("finished without being killed\n");
