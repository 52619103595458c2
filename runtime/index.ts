// The runtime's public surface. Generated code imports types from here ("strand/runtime").
export type { QueryContext, CompareOp, SortDirection, PathEndpoint, WeightFn } from "./query-context.js";
export type { QueryModule, ParamSpec } from "./query-module.js";
export type { NodeItem, EdgeItem, GraphItem, Path, PropValue, Props, GroupCount, AggregateGroup } from "./items.js";
export type {
  SchemaDescriptor,
  NodeTypeDescriptor,
  VectorTypeDescriptor,
  EdgeTypeDescriptor,
  FieldDescriptor,
  FieldDefault,
  ValueType,
  ScalarName,
  JsonValue,
} from "./schema.js";
export { StrandError, isStrandError } from "./errors.js";
export type { ErrorCode } from "./errors.js";
