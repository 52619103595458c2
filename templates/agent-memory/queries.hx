// Embed(text) uses the project's embedding model: strand.toml `embedding_model`, by default
// "hash", which is offline and lexical (texts that share words are near, synonyms are not).
// For search by meaning set a real one, e.g. embedding_model = "openai:text-embedding-3-small".

// ---- writes

// Stores a memory with the embedding of its text, for the user (created on first use), and
// links it to the entities it mentions (each created on first mention). One transaction.
QUERY Remember(handle: String, text: String, entities: [String]) =>
    user <- N<User>({handle: handle})::UpsertN({handle: handle})
    memory <- AddV<Memory>(Embed(text), {text: text})
    AddE<Remembers>::From(user)::To(memory)
    FOR name IN entities {
        entity <- N<Entity>({name: name})::UpsertN({name: name})
        AddE<Mentions>::From(memory)::To(entity)
    }
    RETURN memory::{id, text, created_at}

// Deletes a memory with its edges (its entities stay).
QUERY Forget(id: ID) =>
    DROP V<Memory>(id)
    RETURN NONE

// ---- recall

// By meaning: the user's k memories nearest to the question, best first (score: cosine similarity).
QUERY Recall(handle: String, question: String, k: I64) =>
    memories <- N<User>({handle: handle})::Out<Remembers>::SearchV<Memory>(Embed(question), k)::{id, text, score}
    RETURN memories

// By words: BM25 over every memory, then the user's (score: BM25 relevance).
QUERY KeywordRecall(handle: String, words: String, k: I64) =>
    memories <- SearchBM25<Memory>(words, 100)::WHERE(EXISTS(_::In<Remembers>::WHERE(_::{handle}::EQ(handle))))::RANGE(0, k)::{id, text, score}
    RETURN memories

// Both, fused by reciprocal rank (score: the sum of 1/(60 + rank) over the two rankings):
// a memory that is near in meaning and shares words comes first.
QUERY HybridRecall(handle: String, question: String, k: I64) =>
    byMeaning <- N<User>({handle: handle})::Out<Remembers>::SearchV<Memory>(Embed(question), 20)
    byWords <- SearchBM25<Memory>(question, 100)::WHERE(EXISTS(_::In<Remembers>::WHERE(_::{handle}::EQ(handle))))
    memories <- byMeaning::RerankRRF(byWords)::RANGE(0, k)::{id, text, score}
    RETURN memories

// ---- browse

// The user's memories, newest first.
QUERY MemoriesOf(handle: String) =>
    memories <- N<User>({handle: handle})::Out<Remembers>::ORDER<Desc>(_::{created_at})::{id, text, created_at}
    RETURN memories

// The user's memories that mention an entity.
QUERY MemoriesAbout(handle: String, entity: String) =>
    memories <- N<User>({handle: handle})::Out<Remembers>::WHERE(EXISTS(_::Out<Mentions>::WHERE(_::{name}::EQ(entity))))::{id, text, created_at}
    RETURN memories

// Everything the user's memories mention, each once.
QUERY EntitiesOf(handle: String) =>
    entities <- N<User>({handle: handle})::Out<Remembers>::Out<Mentions>::Dedup::{name}
    RETURN entities
