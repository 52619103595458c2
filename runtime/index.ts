// The runtime's public surface. Generated code imports types from here ("strand/runtime").
export type { QueryContext, CompareOp, SortDirection, PathEndpoint, WeightFn } from "../core/query-context.js";
export type { QueryModule, ParamSpec } from "../core/query-module.js";
export type { NodeItem, EdgeItem, GraphItem, Path, PropValue, Props, GroupCount, AggregateGroup } from "../core/items.js";
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
} from "../core/schema.js";
export { StrandError, isStrandError } from "../core/errors.js";
export type { ErrorCode } from "../core/errors.js";
