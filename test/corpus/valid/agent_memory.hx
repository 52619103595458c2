// Agent memory store: agents hold conversation sessions of messages, distil them into long-term
// memories (with embeddings for recall), keep key/value facts, and expose tools over MCP.
// Every query here must be accepted by `strand check` (see test/corpus.test.ts).

N::Agent {
    UNIQUE INDEX handle: String,
    persona: String,
    INDEX owner: String,
    temperature: F32 DEFAULT 0.7,
    max_tokens: U32 DEFAULT 4096,
    active: Boolean DEFAULT true,
    created: Date DEFAULT NOW,
}

N::Session {
    UNIQUE INDEX session_key: String,
    title: String DEFAULT "untitled",
    started: Date DEFAULT NOW,
    ended: Date,
    tokens: U64 DEFAULT 0,
    open: Boolean DEFAULT true,
}

N::Message {
    role: String,
    content: String,
    at: Date DEFAULT NOW,
    tokens: U32 DEFAULT 0,
    tool: String DEFAULT "",
}

N::Memory {
    INDEX kind: String,
    text: String,
    importance: F64 DEFAULT 0.5,
    access_count: U32 DEFAULT 0,
    last_access: Date DEFAULT NOW,
    created: Date DEFAULT NOW,
    tags: [String],
    pinned: Boolean DEFAULT false,
}

N::Fact {
    UNIQUE INDEX key: String,
    value: String,
    confidence: F64 DEFAULT 1.0,
    source: String DEFAULT "user",
    updated: Date DEFAULT NOW,
}

N::Tool {
    UNIQUE INDEX tool_name: String,
    description: String,
    calls: U64 DEFAULT 0,
}

E::HasSession { From: Agent, To: Session }
E::Contains { From: Session, To: Message, Properties: { position: U32 } }
E::ReplyTo UNIQUE { From: Message, To: Message }
E::Remembers { From: Agent, To: Memory, Properties: { strength: F64 DEFAULT 1.0, since: Date DEFAULT NOW } }
E::DerivedFrom { From: Memory, To: Message }
E::Supersedes UNIQUE { From: Memory, To: Memory }
E::Knows UNIQUE { From: Agent, To: Fact }
E::CanUse UNIQUE { From: Agent, To: Tool, Properties: { granted: Date DEFAULT NOW } }
E::Invoked { From: Message, To: Tool, Properties: { ok: Boolean DEFAULT true, millis: U32 DEFAULT 0 } }

V::MemoryVector {
    text: String,
    kind: String,
    agent: String,
    importance: F64 DEFAULT 0.5,
}

// ---------------------------------------------------------------- agents

QUERY CreateAgent(handle: String, persona: String, owner: String, temperature?: F32, max_tokens?: U32) =>
    agent <- AddN<Agent>({handle: handle, persona: persona, owner: owner, temperature: temperature, max_tokens: max_tokens})
    RETURN agent

QUERY GetAgent(handle: String) =>
    agent <- N<Agent>({handle: handle})
    RETURN agent

QUERY AgentById(id: ID) =>
    agent <- N<Agent>(id)::!{owner}
    RETURN agent

QUERY AgentsOfOwner(owner: String) =>
    agents <- N<Agent>::WHERE(_::{owner}::EQ(owner))::{handle, persona, active}
    RETURN agents

QUERY ActiveAgents() =>
    agents <- N<Agent>::WHERE(_::{active}::EQ(true))::ORDER<Asc>(_::{handle})
    RETURN agents

QUERY SetPersona(id: ID, persona: String) =>
    agent <- N<Agent>(id)::UPDATE({persona: persona})
    RETURN agent

QUERY TuneAgent(id: ID, temperature: F32, max_tokens: U32) =>
    agent <- N<Agent>(id)::UPDATE({temperature: temperature, max_tokens: max_tokens})
    RETURN agent::{handle, temperature, max_tokens}

QUERY DeactivateAgent(handle: String) =>
    agent <- N<Agent>({handle: handle})::UPDATE({active: false})
    RETURN agent

QUERY DeleteAgent(id: ID) =>
    agent <- N<Agent>(id)
    DROP agent::Out<HasSession>::Out<Contains>
    DROP agent::Out<HasSession>
    DROP agent::Out<Remembers>
    DROP agent
    RETURN "deleted"

QUERY AgentOverview(id: ID) =>
    overview <- N<Agent>(id)::{
        handle,
        sessions: _::Out<HasSession>::COUNT,
        memories: _::Out<Remembers>::COUNT,
        facts: _::Out<Knows>::COUNT,
        tools: _::Out<CanUse>::{tool_name},
    }
    RETURN overview

QUERY AgentsByOwnerCount() =>
    owners <- N<Agent>::GROUP_BY(owner)
    RETURN owners

QUERY HotAgents(min: I64) =>
    agents <- N<Agent>::WHERE(_::Out<HasSession>::COUNT::GTE(min))::{handle}
    RETURN agents

// ---------------------------------------------------------------- sessions and messages

QUERY StartSession(agent: ID, session_key: String, title?: String) =>
    session <- AddN<Session>({session_key: session_key, title: title})
    AddE<HasSession>::From(agent)::To(session)
    RETURN session

QUERY SessionByKey(session_key: String) =>
    session <- N<Session>({session_key: session_key})
    RETURN session

QUERY EndSession(id: ID, tokens: U64) =>
    session <- N<Session>(id)::UPDATE({open: false, ended: NOW, tokens: tokens})
    RETURN session

QUERY OpenSessions(agent: ID) =>
    sessions <- N<Agent>(agent)::Out<HasSession>::WHERE(_::{open}::EQ(true))::ORDER<Desc>(_::{started})
    RETURN sessions

QUERY RecentSessions(agent: ID, since: Date) =>
    sessions <- N<Agent>(agent)::Out<HasSession>::WHERE(_::{started}::GT(since))::{title, started, tokens}
    RETURN sessions

QUERY LatestSession(agent: ID) =>
    session <- N<Agent>(agent)::Out<HasSession>::ORDER<Desc>(_::{started})::FIRST
    RETURN session

QUERY SessionsStartedIn(from: Date, to: Date) =>
    sessions <- N<Session>::WHERE(AND(_::{started}::GTE(from), _::{started}::LT(to)))
    RETURN sessions

QUERY AppendMessage(session: ID, role: String, content: String, position: U32, tokens: U32) =>
    message <- AddN<Message>({role: role, content: content, tokens: tokens})
    AddE<Contains>({position: position})::From(session)::To(message)
    RETURN message

QUERY Reply(session: ID, to: ID, content: String, position: U32) =>
    message <- AddN<Message>({role: "assistant", content: content})
    AddE<Contains>({position: position})::From(session)::To(message)
    AddE<ReplyTo>::From(message)::To(to)
    RETURN message::ID

QUERY Transcript(session: ID) =>
    messages <- N<Session>(session)::OutE<Contains>::ORDER<Asc>(_::{position})::ToN::{role, content, at}
    RETURN messages

QUERY TranscriptPage(session: ID, start: U32, end: U32) =>
    messages <- N<Session>(session)::OutE<Contains>::ORDER<Asc>(_::{position})::RANGE(start, end)::{position, message: _::ToN::{role, content}}
    RETURN messages

QUERY LastMessages(session: ID, n: U32) =>
    messages <- N<Session>(session)::Out<Contains>::ORDER<Desc>(_::{at})::RANGE(0, n)
    RETURN messages

QUERY MessagesByRole(session: ID, roles: [String]) =>
    messages <- N<Session>(session)::Out<Contains>::WHERE(_::{role}::IS_IN(roles))
    RETURN messages

QUERY SearchTranscript(session: ID, needle: String) =>
    messages <- N<Session>(session)::Out<Contains>::WHERE(_::{content}::CONTAINS(needle))::{role, content}
    RETURN messages

QUERY ThreadOf(message: ID) =>
    parent <- N<Message>(message)::Out<ReplyTo>::{role, content}
    replies <- N<Message>(message)::In<ReplyTo>::{role, content}
    RETURN parent, replies

QUERY UnansweredUserMessages(session: ID) =>
    messages <- N<Session>(session)::Out<Contains>::WHERE(AND(_::{role}::EQ("user"), !EXISTS(_::In<ReplyTo>)))
    RETURN messages

QUERY SessionTokenUsage(session: ID) =>
    usage <- SUM(N<Session>(session)::Out<Contains>::{tokens})
    average <- AVG(N<Session>(session)::Out<Contains>::{tokens})
    longest <- MAX(N<Session>(session)::Out<Contains>::{tokens})
    RETURN {tokens: usage, average: average, longest: longest}

QUERY TokensPerRole(session: ID) =>
    roles <- N<Session>(session)::Out<Contains>::GROUP_BY(role)
    RETURN roles

QUERY MessagesGroupedByRole(session: ID) =>
    groups <- N<Session>(session)::Out<Contains>::AGGREGATE_BY(role)
    RETURN groups

QUERY DeleteMessage(id: ID) =>
    DROP N<Message>(id)
    RETURN NONE

QUERY ForgetSession(id: ID) =>
    DROP N<Session>(id)::Out<Contains>
    DROP N<Session>(id)
    RETURN "forgotten"

QUERY ImportSession(agent: ID, session_key: String, title: String, messages: [{role: String, content: String, tokens: U32}]) =>
    session <- AddN<Session>({session_key: session_key, title: title, open: false})
    AddE<HasSession>::From(agent)::To(session)
    FOR {role, content, tokens} IN messages {
        message <- AddN<Message>({role: role, content: content, tokens: tokens})
        AddE<Contains>({position: 0})::From(session)::To(message)
    }
    RETURN session

// ---------------------------------------------------------------- memories

QUERY Remember(agent: ID, kind: String, text: String, importance: F64, tags: [String]) =>
    memory <- AddN<Memory>({kind: kind, text: text, importance: importance, tags: tags})
    AddE<Remembers>::From(agent)::To(memory)
    RETURN memory

QUERY RememberFrom(agent: ID, message: ID, kind: String, text: String) =>
    memory <- AddN<Memory>({kind: kind, text: text})
    AddE<Remembers>({strength: 0.8})::From(agent)::To(memory)
    AddE<DerivedFrom>::From(memory)::To(message)
    RETURN memory

QUERY MemoryById(id: ID) =>
    memory <- N<Memory>(id)::{text, kind, importance, origin: _::Out<DerivedFrom>::{content}, ..}
    RETURN memory

QUERY MemoriesOfKind(agent: ID, kind: String) =>
    memories <- N<Agent>(agent)::Out<Remembers>::WHERE(_::{kind}::EQ(kind))::ORDER<Desc>(_::{importance})
    RETURN memories

QUERY AllMemoriesOfKind(kind: String) =>
    memories <- N<Memory>::WHERE(_::{kind}::EQ(kind))::COUNT
    RETURN memories

QUERY PinnedMemories(agent: ID) =>
    memories <- N<Agent>(agent)::Out<Remembers>::WHERE(_::{pinned}::EQ(true))::{text, tags}
    RETURN memories

QUERY MemoriesTagged(agent: ID, tag: String) =>
    memories <- N<Agent>(agent)::Out<Remembers>::WHERE(_::{tags}::CONTAINS(tag))
    RETURN memories

QUERY ImportantOrRecent(agent: ID, min: F64, since: Date) =>
    memories <- N<Agent>(agent)::Out<Remembers>::WHERE(OR(_::{importance}::GTE(min), _::{created}::GTE(since), _::{pinned}::EQ(true)))
    RETURN memories

QUERY StaleMemories(agent: ID, before: Date) =>
    memories <- N<Agent>(agent)::Out<Remembers>::WHERE(!OR(_::{pinned}::EQ(true), _::{last_access}::GTE(before)))::{text, last_access}
    RETURN memories

QUERY TouchMemory(id: ID, access_count: U32) =>
    memory <- N<Memory>(id)::UPDATE({access_count: access_count, last_access: NOW})
    RETURN memory::{access_count, last_access}

QUERY PinMemory(id: ID, pinned: Boolean) =>
    memory <- N<Memory>(id)::UPDATE({pinned: pinned})
    RETURN NONE

QUERY Reinforce(agent: ID, memory: ID, strength: F64) =>
    link <- N<Agent>(agent)::OutE<Remembers>::WHERE(_::ToN::ID::EQ(memory))::UpsertE({strength: strength})::From(agent)::To(memory)
    RETURN link

QUERY StrongMemories(agent: ID) =>
    memories <- N<Agent>(agent)::OutE<Remembers>::WHERE(_::{strength}::GT(0.75))::ToN::{text}
    RETURN memories

QUERY DecayedScores(agent: ID, half_life_days: F64) =>
    scores <- N<Agent>(agent)::Out<Remembers>::{
        text,
        score: MUL(_::{importance}, POW(0.5, DIV(_::{access_count}, half_life_days))),
        boosted: MIN(1.0, ADD(_::{importance}, 0.1)),
        logAccess: LN(ADD(_::{access_count}, 1)),
        recency: EXP(MUL(-0.1, _::{access_count})),
        natural: POW(E(), MUL(-0.1, _::{access_count})),
    }
    RETURN scores

QUERY SupersedeMemory(old: ID, kind: String, text: String) =>
    replacement <- AddN<Memory>({kind: kind, text: text})
    AddE<Supersedes>::From(replacement)::To(old)
    RETURN replacement

QUERY CurrentMemories(agent: ID) =>
    memories <- N<Agent>(agent)::Out<Remembers>::WHERE(!EXISTS(_::In<Supersedes>))
    RETURN memories

QUERY MemoryLineage(from: ID, to: ID) =>
    lineage <- N<Memory>(from)::ShortestPath<Supersedes>::To(to)
    RETURN lineage

QUERY ForgetMemory(id: ID) =>
    DROP N<Memory>(id)
    RETURN NONE

QUERY ForgetUnimportant(agent: ID, below: F64) =>
    DROP N<Agent>(agent)::Out<Remembers>::WHERE(AND(_::{importance}::LT(below), _::{pinned}::NEQ(true)))
    RETURN "pruned"

QUERY SharedMemories(a: ID, b: ID) =>
    shared <- N<Agent>(a, b)::INTERSECT(_::Out<Remembers>)::{text}
    RETURN shared

QUERY RememberMany(agent: ID, memories: [{kind: String, text: String, importance: F64, tags: [String]}]) =>
    FOR memory IN memories {
        node <- AddN<Memory>({kind: memory.kind, text: memory.text, importance: memory.importance, tags: memory.tags})
        AddE<Remembers>::From(agent)::To(node)
    }
    RETURN "ok"

// ---------------------------------------------------------------- recall

#[mcp]
#[model("openai:text-embedding-3-small")]
QUERY Recall(agent: String, question: String, k: U32) =>
    hits <- SearchV<MemoryVector>(Embed(question), k)::WHERE(_::{agent}::EQ(agent))::{text, kind, score}
    RETURN hits

QUERY RecallByVector(vector: [F64], k: U32) =>
    hits <- SearchV<MemoryVector>(vector, k)
    RETURN hits

QUERY RecallDiverse(question: String) =>
    hits <- SearchV<MemoryVector>(Embed(question), 40)::RerankMMR(0.5, "euclidean")::RANGE(0, 8)
    RETURN hits

QUERY RecallImportant(question: String, min: F64) =>
    hits <- SearchV<MemoryVector>(Embed(question), 30)::WHERE(_::{importance}::GTE(min))::ORDER<Desc>(_::{importance})
    RETURN hits

QUERY RecallHybrid(question: String) =>
    semantic <- SearchV<MemoryVector>(Embed(question), 25)
    lexical <- SearchBM25<MemoryVector>(question, 25)
    RETURN RerankRRF(semantic, lexical)

QUERY RecallFused(question: String) =>
    hits <- SearchV<MemoryVector>(Embed(question), 25)::RerankRRF(SearchBM25<MemoryVector>(question, 25), k: 30)::{text, score}
    RETURN hits

QUERY StoreMemoryVector(agent: String, kind: String, text: String) =>
    vector <- AddV<MemoryVector>(Embed(text), {text: text, kind: kind, agent: agent})
    RETURN vector::ID

QUERY StoreRawVector(agent: String, text: String, vector: [F64], importance: F64) =>
    stored <- AddV<MemoryVector>(vector, {text: text, kind: "raw", agent: agent, importance: importance})
    RETURN stored

QUERY ReembedMemory(agent: String, text: String) =>
    vector <- V<MemoryVector>::WHERE(AND(_::{agent}::EQ(agent), _::{text}::EQ(text)))::UpsertV(Embed(text), {text: text, kind: "episodic", agent: agent})
    RETURN vector

QUERY DropAgentVectors(agent: String) =>
    DROP V<MemoryVector>::WHERE(_::{agent}::EQ(agent))
    RETURN NONE

QUERY VectorCount(agent: String) =>
    count <- V<MemoryVector>::WHERE(_::{agent}::EQ(agent))::COUNT
    RETURN count

QUERY KeywordMessages(text: String) =>
    messages <- SearchBM25<Message>(text, 20)::{role, content}
    RETURN messages

// ---------------------------------------------------------------- facts

#[mcp]
QUERY SetFact(agent: ID, key: String, value: String, confidence: F64) =>
    fact <- N<Fact>({key: key})::UpsertN({key: key, value: value, confidence: confidence, updated: NOW})
    AddE<Knows>::From(agent)::To(fact)
    RETURN fact

#[mcp]
QUERY GetFact(key: String) =>
    fact <- N<Fact>({key: key})::{key, value, confidence}
    RETURN fact

QUERY FactsOf(agent: ID) =>
    facts <- N<Agent>(agent)::Out<Knows>::ORDER<Asc>(_::{key})::{key, value}
    RETURN facts

QUERY FactsWithPrefix(agent: ID, prefix: String) =>
    facts <- N<Agent>(agent)::Out<Knows>::WHERE(_::{key}::CONTAINS(prefix))
    RETURN facts

QUERY FactsFrom(sources: [String]) =>
    facts <- N<Fact>::WHERE(AND(_::{source}::IS_IN(sources), _::{confidence}::GT(0.5)))
    RETURN facts

QUERY ForgetFact(key: String) =>
    DROP N<Fact>({key: key})
    RETURN NONE

QUERY ImportFacts(agent: ID, facts: [{key: String, value: String, source?: String}]) =>
    FOR fact IN facts {
        node <- N<Fact>({key: fact.key})::UpsertN({key: fact.key, value: fact.value, source: fact.source})
        AddE<Knows>::From(agent)::To(node)
    }
    RETURN "imported"

// ---------------------------------------------------------------- tools

QUERY RegisterTool(tool_name: String, description: String) =>
    tool <- N<Tool>({tool_name: tool_name})::UpsertN({tool_name: tool_name, description: description})
    RETURN tool

QUERY GrantTool(agent: ID, tool: ID) =>
    AddE<CanUse>::From(agent)::To(tool)
    RETURN "granted"

QUERY RecordInvocation(message: ID, tool: ID, ok: Boolean, millis: U32, calls: U64) =>
    call <- AddE<Invoked>({ok: ok, millis: millis})::From(message)::To(tool)
    N<Tool>(tool)::UPDATE({calls: calls})
    RETURN call

QUERY ToolStats(tool: ID) =>
    invocations <- N<Tool>(tool)::InE<Invoked>
    RETURN {
        calls: invocations::COUNT,
        failures: invocations::WHERE(_::{ok}::EQ(false))::COUNT,
        mean_millis: AVG(invocations::{millis}),
        p_fail: DIV(invocations::WHERE(_::{ok}::EQ(false))::COUNT, MAX(1, invocations::COUNT)),
    }

QUERY ToolsOf(agent: ID) =>
    tools <- N<Agent>(agent)::Out<CanUse>::{tool_name, description}
    RETURN tools

QUERY SlowCalls(tool: ID, millis: U32) =>
    calls <- N<Tool>(tool)::InE<Invoked>::WHERE(_::{millis}::GT(millis))::{millis, message: _::FromN::{content}}
    RETURN calls

// Intentionally binds a read it never uses: the one warning of this project.
QUERY WarmUp(agent: ID) =>
    memories <- N<Agent>(agent)::Out<Remembers>
//  ^ W002
    RETURN "warm"

QUERY Health() =>
    RETURN {agents: N<Agent>::COUNT, memories: N<Memory>::COUNT, status: "ok"}
