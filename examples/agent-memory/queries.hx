// Temporal facts over episodes and entities (schema.hx). Every time is a parameter where it
// matters, so an agent replaying a conversation gets the same memory; created_at may be left
// out (the time of the write). Embed(text) uses the embedding model of strand.toml: the
// built-in "hash", offline and lexical, until a real one is set there.

// ---- writes

// Something the agent was told, at created_at (the time it happened; default: now).
QUERY AddEpisode(text: String, source: String, created_at?: Date) =>
    episode <- AddN<Episode>({text: text, source: source, created_at: created_at})
    RETURN episode

// The entity of this name, created on first use; type and summary are replaced when given and
// kept when left out. Records that the episode mentions it (once, however often it is called).
QUERY UpsertEntity(episode: ID, name: String, type?: String, summary?: String) =>
    entity <- N<Entity>({name: name})::UpsertN({name: name, type: type, summary: summary})
    mention <- N<Episode>(episode)::OutE<Mentions>::WHERE(_::ToN::{name}::EQ(name))::UpsertE({})::From(episode)::To(entity)
    RETURN entity

// A fact between two entities (by name; both must exist: a 404 names the missing one), true
// from valid_at on, extracted from an episode. Writes the Fact edge and its searchable copy.
QUERY AddFact(episode: ID, subject: String, relation: String, object: String, fact: String, valid_at: Date, created_at?: Date) =>
    source <- N<Episode>(episode)
    from <- N<Entity>({name: subject})
    to <- N<Entity>({name: object})
    edge <- AddE<Fact>({relation: relation, fact: fact, valid_at: valid_at, created_at: created_at, episode: source::ID})::From(from)::To(to)
    copy <- AddV<FactText>(Embed(fact), {fact_id: edge::ID, fact: fact, valid_at: valid_at})
    AddE<About>::From(copy)::To(from)
    AddE<About>::From(copy)::To(to)
    RETURN edge

// Ends a fact instead of deleting it: it stopped being true at invalid_at, and the memory learned
// so at expired_at (usually the time of the episode that says so). Its history stays.
QUERY InvalidateFact(id: ID, invalid_at: Date, expired_at: Date) =>
    fact <- E<Fact>(id)::UPDATE({invalid_at: invalid_at, expired_at: expired_at})
    copy <- V<FactText>({fact_id: id})::UPDATE({invalid_at: invalid_at, expired_at: expired_at})
    RETURN fact

// ---- what is true

// What is true now about an entity, as subject (outgoing) and as object (incoming): valid now and
// not expired.
QUERY FactsNow(entity: String) =>
    outgoing <- N<Entity>({name: entity})::OutE<Fact>::WHERE(AND(_::{valid_at}::LTE(NOW), _::{invalid_at}::GT(NOW), _::{expired_at}::GT(NOW)))::ORDER<Asc>(_::{valid_at})::{id, subject: _::FromN::{name}, relation, object: _::ToN::{name}, fact, valid_at, invalid_at}
    incoming <- N<Entity>({name: entity})::InE<Fact>::WHERE(AND(_::{valid_at}::LTE(NOW), _::{invalid_at}::GT(NOW), _::{expired_at}::GT(NOW)))::ORDER<Asc>(_::{valid_at})::{id, subject: _::FromN::{name}, relation, object: _::ToN::{name}, fact, valid_at, invalid_at}
    RETURN outgoing, incoming

// What was true about an entity at time t (valid_at <= t < invalid_at), by what the memory knows
// now: a fact invalidated since still answers for the time it was valid.
QUERY FactsAt(entity: String, t: Date) =>
    outgoing <- N<Entity>({name: entity})::OutE<Fact>::WHERE(AND(_::{valid_at}::LTE(t), _::{invalid_at}::GT(t)))::ORDER<Asc>(_::{valid_at})::{id, subject: _::FromN::{name}, relation, object: _::ToN::{name}, fact, valid_at, invalid_at}
    incoming <- N<Entity>({name: entity})::InE<Fact>::WHERE(AND(_::{valid_at}::LTE(t), _::{invalid_at}::GT(t)))::ORDER<Asc>(_::{valid_at})::{id, subject: _::FromN::{name}, relation, object: _::ToN::{name}, fact, valid_at, invalid_at}
    RETURN outgoing, incoming

// Every fact about an entity as subject, invalidated ones included, oldest first, with both times.
QUERY FactHistory(entity: String) =>
    facts <- N<Entity>({name: entity})::OutE<Fact>::ORDER<Asc>(_::{valid_at})::{id, subject: _::FromN::{name}, relation, object: _::ToN::{name}, fact, valid_at, invalid_at, created_at, expired_at, episode}
    RETURN facts

// ---- retrieval

// The facts most relevant to a question among those valid at t, best first: three rankings of
// the facts valid at t fused by reciprocal rank (score: the sum of 1/(60 + rank)):
// by words (BM25 over the fact text), by meaning (nearest embeddings), and the facts about the
// entities the question names (BM25 over entity name, type and summary, then their facts).
// The ::WHERE on each search keeps the best k of the facts that pass, not the best k filtered
// afterwards, so a fact invalidated since never takes a place.
QUERY RecallAt(question: String, t: Date, k: I64) =>
    byWords <- SearchBM25<FactText>(question, k)::WHERE(AND(_::{valid_at}::LTE(t), _::{invalid_at}::GT(t)))
    byMeaning <- SearchV<FactText>(Embed(question), k)::WHERE(AND(_::{valid_at}::LTE(t), _::{invalid_at}::GT(t)))
    nearby <- SearchBM25<Entity>(question, 5)::In<About>::WHERE(AND(_::{valid_at}::LTE(t), _::{invalid_at}::GT(t)))::Dedup
    facts <- byWords::RerankRRF(byMeaning, nearby)::RANGE(0, k)::{fact_id, fact, about: _::Out<About>::{name}, valid_at, invalid_at, score}
    RETURN facts

// ---- provenance

// The episode a fact was extracted from.
QUERY Provenance(id: ID) =>
    fact <- E<Fact>(id)
    episode <- N<Episode>(fact::{episode})
    RETURN episode

// The facts extracted from an episode (an index lookup on Fact.episode), and the entities it mentions.
QUERY FromEpisode(episode: ID) =>
    facts <- E<Fact>::WHERE(_::{episode}::EQ(episode))::{id, relation, fact, valid_at, invalid_at}
    entities <- N<Episode>(episode)::Out<Mentions>::{name}
    RETURN facts, entities
