// `strand/langgraph`: LangGraph.js's persistence in a Strand server (`strand serve --memory true`).
export { StrandSaver } from "./strand-saver.js";
export { StrandStore, type StrandStoreOptions } from "./strand-store.js";
export { StrandClientError, type StrandConnection } from "./http.js";
