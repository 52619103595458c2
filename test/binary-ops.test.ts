// The packed changes of a log entry (runtime/commit-log/binary-ops.ts): every kind of op decodes
// to the LoggedOp it stands for, in order, and a cut or unknown string is refused by name.
import { expect, test } from "vitest";
import { BinaryOps, decodeBinaryOps } from "../runtime/commit-log/binary-ops.js";

const bytes = (...values: number[]) => Uint8Array.from(values);
/** Ops with their bytes as arrays of numbers, for exact comparison. */
const plain = (value: unknown): unknown => (value instanceof Uint8Array ? [...value] : Array.isArray(value) ? value.map(plain) : value);

test("every kind of op decodes to the op it stands for, in the order written", () => {
  const ops = new BinaryOps();
  ops.put("edgeEnds", bytes(1, 2, 3), bytes(9, 8));
  ops.remove("inPending", bytes(4, 5));
  ops.append("out", bytes(6), bytes(7, 7, 7, 7));
  ops.fold(null);
  ops.fold({ from: null, until: bytes(1, 0) });
  ops.fold({ from: bytes(2), until: null });
  ops.put("in", bytes(3), new Uint8Array(70_000).fill(5)); // a value past 64 KiB
  const decoded = decodeBinaryOps(ops.bytes());
  expect(decoded[6]![2]).toEqual(new Uint8Array(70_000).fill(5));
  expect(plain(decoded.slice(0, 6))).toEqual([
    ["edgeEnds", [1, 2, 3], [9, 8]],
    ["inPending", [4, 5]],
    ["out", [6], "append", [7, 7, 7, 7]],
    ["inPending", []],
    ["inPending", [], [null, [1, 0]]],
    ["inPending", [], [[2], null]],
  ]);
});

test("nothing written is empty; a cut string and an unknown op are refused", () => {
  const ops = new BinaryOps();
  expect(ops.empty).toBe(true);
  ops.put("out", bytes(1, 2), bytes(3, 4, 5));
  expect(ops.empty).toBe(false);
  const whole = ops.bytes();
  expect(() => decodeBinaryOps(whole.subarray(0, whole.length - 1))).toThrow("a log entry's packed changes end early");
  expect(() => decodeBinaryOps(bytes(0x0f))).toThrow("a log entry's packed changes name database 15");
  expect(() => decodeBinaryOps(bytes(0x71))).toThrow("a log entry's packed changes hold an op of kind 7 on out");
  expect(() => decodeBinaryOps(bytes(0x31, 0, 0, 0, 0, 0, 0))).not.toThrow(); // an append of no entries to the empty key of `out`
  expect(() => decodeBinaryOps(bytes(0x30, 1, 0, 9, 0, 0, 0, 0))).toThrow("a log entry's packed changes hold an op of kind 3 on edgeEnds");
});
