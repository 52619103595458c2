// A LangGraph.js agent that remembers across runs, in a Strand server (`strand serve --memory true`):
// StrandSaver keeps each conversation thread (short-term memory: the turns so far), StrandStore
// keeps what a user asked it to remember (long-term memory, across threads), searched by meaning
// through the server's embedder. No language model: the agent's one node stores a fact when told
// "remember …" and otherwise answers with the stored fact nearest the question.
//
//   node examples/langgraph-agent/agent.mjs <user> <thread> <what the user says>
//
// STRAND_URL (default http://localhost:6969) names the server; STRAND_API_KEY its key, if any.
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { StrandSaver, StrandStore } from "strand/langgraph";

const connection = { url: process.env.STRAND_URL ?? "http://localhost:6969", apiKey: process.env.STRAND_API_KEY };
const [user, thread, ...words] = process.argv.slice(2);
if (user === undefined || thread === undefined || words.length === 0) {
  console.error("usage: node agent.mjs <user> <thread> <what the user says>");
  process.exit(2);
}

const State = Annotation.Root({
  // Every turn of the thread, kept by the checkpointer between runs.
  turns: Annotation({ reducer: (kept, added) => kept.concat(added), default: () => [] }),
  reply: Annotation(),
});

async function respond(state, config) {
  const memories = ["users", config.configurable.user_id, "memories"];
  const said = state.turns.at(-1);
  if (said.startsWith("remember ")) {
    const fact = said.slice("remember ".length);
    await config.store.put(memories, crypto.randomUUID(), { text: fact });
    return { reply: `noted: ${fact}` };
  }
  const [nearest] = await config.store.search(memories, { query: said, limit: 1 });
  return { reply: nearest === undefined ? "I know nothing about you yet" : `you told me: ${nearest.value.text}` };
}

const agent = new StateGraph(State)
  .addNode("respond", respond)
  .addEdge(START, "respond")
  .addEdge("respond", END)
  .compile({ checkpointer: new StrandSaver(connection), store: new StrandStore({ ...connection, index: { fields: ["text"] } }) });

const state = await agent.invoke({ turns: [words.join(" ")] }, { configurable: { thread_id: thread, user_id: user } });
console.log(state.reply);
console.log(`turns in thread ${thread}: ${state.turns.length}`);
