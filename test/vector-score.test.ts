// core/vector-score.ts: the one rule that puts `score` on every vector a query returns.
import { describe, expect, test } from "vitest";
import { NO_SEARCH_SCORE, vectorAnswerShaper, withVectorScores } from "../core/vector-score.js";

const isVector = (label: string) => label === "Chunk";
const chunk = (id: string, extra: Record<string, unknown> = {}) => Object.freeze({ id, label: "Chunk", data: [1, 0], ...extra });

describe("withVectorScores", () => {
  test("a vector without score gets 2 (HelixDB's value when no search produced one); a search's score stays", () => {
    expect(NO_SEARCH_SCORE).toBe(2);
    expect(withVectorScores(chunk("a"), isVector)).toEqual({ id: "a", label: "Chunk", data: [1, 0], score: 2 });
    const hit = chunk("b", { score: 0.5 });
    expect(withVectorScores(hit, isVector)).toBe(hit);
    expect(JSON.stringify(withVectorScores({ c: chunk("a") }, isVector))).toBe('{"c":{"id":"a","label":"Chunk","data":[1,0],"score":2}}');
  });

  test("anywhere in the result: lists, objects, nested lists; frozen inputs are copied, never changed", () => {
    const a = chunk("a");
    const node = Object.freeze({ id: "n", label: "Doc", title: "t", chunks: Object.freeze([a]) });
    const result = Object.freeze({ doc: node, groups: Object.freeze([Object.freeze({ count: 1, data: Object.freeze([a]) })]) });
    expect(withVectorScores(result, isVector)).toEqual({
      doc: { id: "n", label: "Doc", title: "t", chunks: [{ ...a, score: 2 }] },
      groups: [{ count: 1, data: [{ ...a, score: 2 }] }],
    });
    expect(a).toEqual({ id: "a", label: "Chunk", data: [1, 0] });
  });

  test("what holds no vector is returned as is: nodes, edges, projections, scalars, null", () => {
    const value = {
      doc: { id: "n", label: "Doc" },
      edge: { id: "e", label: "Has", from_node: "n", to_node: "a" },
      texts: [{ text: "x" }],
      n: 3,
      none: null,
    };
    expect(withVectorScores(value, isVector)).toBe(value);
    for (const scalar of [null, 1, "Chunk", true]) expect(withVectorScores(scalar, isVector)).toBe(scalar);
    // A projection of a vector has no id and label: it is not a vector record.
    const projected = [{ text: "x", data: [1, 0] }];
    expect(withVectorScores(projected, isVector)).toBe(projected);
  });

  test("member names a user chose, such as __proto__, stay own members in order", () => {
    const value = JSON.parse('{"__proto__": 1, "v": {"id": "a", "label": "Chunk"}, "z": 2}') as Record<string, unknown>;
    const out = withVectorScores(value, isVector) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "v", "z"]);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":1,"v":{"id":"a","label":"Chunk","score":2},"z":2}');
  });

  test("keepData false: vector records leave without data, everything else as before", () => {
    const hit = chunk("b", { score: 0.5, title: "t" });
    const value = Object.freeze({
      a: chunk("a"),
      hit,
      groups: [{ count: 1, data: [chunk("c")] }],
      node: { id: "n", label: "Doc", data: [1] },
    });
    expect(JSON.stringify(withVectorScores(value, isVector, false))).toBe(
      '{"a":{"id":"a","label":"Chunk","score":2},"hit":{"id":"b","label":"Chunk","score":0.5,"title":"t"},' +
        '"groups":[{"count":1,"data":[{"id":"c","label":"Chunk","score":2}]}],"node":{"id":"n","label":"Doc","data":[1]}}',
    );
    expect(hit).toEqual({ id: "b", label: "Chunk", data: [1, 0], score: 0.5, title: "t" });
    // A vector without data (its type keeps the vector in an `embedding` field) that has a score is returned as is.
    const embedded = Object.freeze({ id: "e", label: "Chunk", embedding: [1, 0], score: 0.5 });
    expect(withVectorScores(embedded, isVector, false)).toBe(embedded);
  });
});

describe("vectorAnswerShaper", () => {
  test("no vector type: answers are returned as they are; else withVectorScores with the project's setting", () => {
    const value = { v: { id: "a", label: "Chunk", data: [1, 0] } };
    expect(vectorAnswerShaper([])(value)).toBe(value);
    expect(vectorAnswerShaper(["Chunk"])(value)).toEqual({ v: { id: "a", label: "Chunk", data: [1, 0], score: 2 } });
    expect(vectorAnswerShaper(["Chunk"], false)(value)).toEqual({ v: { id: "a", label: "Chunk", score: 2 } });
  });
});
