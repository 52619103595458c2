// Knowledge graph: entities extracted from web sources, typed and weighted relations between
// them, a topic taxonomy, and entity embeddings for semantic lookup. Every query here must be
// accepted by `strand check` (see test/corpus.test.ts).

N::Entity {
    UNIQUE INDEX name: String,
    INDEX kind: String,
    description: String DEFAULT "",
    aliases: [String],
    confidence: F64 DEFAULT 1.0,
    mentions: U32 DEFAULT 0,
    created_at: Date DEFAULT NOW,
    updated_at: Date DEFAULT NOW,
}

N::Source {
    UNIQUE INDEX url: String,
    title: String,
    INDEX publisher: String,
    published: Date,
    trust: F32 DEFAULT 0.5,
    retrieved_at: Date DEFAULT NOW,
}

N::Topic {
    UNIQUE INDEX slug: String,
    title: String,
    depth: U8 DEFAULT 0,
}

E::RelatedTo {
    From: Entity,
    To: Entity,
    Properties: {
        relation: String,
        weight: F64 DEFAULT 1.0,
        since: Date,
        evidence: U32 DEFAULT 1,
    }
}

E::MentionedIn {
    From: Entity,
    To: Source,
    Properties: { count: U32 DEFAULT 1, sentiment: F64 DEFAULT 0.0, snippet: String DEFAULT "" }
}

E::About UNIQUE { From: Entity, To: Topic, Properties: { score: F64 DEFAULT 1.0 } }
E::SubtopicOf UNIQUE { From: Topic, To: Topic }
E::Cites { From: Source, To: Source }
E::SameAs UNIQUE { From: Entity, To: Entity }

V::EntityEmbedding {
    entity_name: String,
    kind: String,
    model: String DEFAULT "text-embedding-3-small",
}

// ---------------------------------------------------------------- entities

QUERY AddEntity(name: String, kind: String, description?: String, aliases: [String], confidence?: F64) =>
    entity <- AddN<Entity>({name: name, kind: kind, description: description, aliases: aliases, confidence: confidence})
    RETURN entity

QUERY UpsertEntity(name: String, kind: String, description: String) =>
    entity <- N<Entity>({name: name})::UpsertN({name: name, kind: kind, description: description, updated_at: NOW})
    RETURN entity

QUERY EntityByName(name: String) =>
    entity <- N<Entity>({name: name})
    RETURN entity

QUERY EntityById(id: ID) =>
    entity <- N<Entity>(id)
    RETURN entity

QUERY EntitiesByIds(a: ID, b: ID, c: ID) =>
    entities <- N<Entity>(a, b, c)::{name, kind}
    RETURN entities

QUERY EntitiesOfKind(kind: String) =>
    entities <- N<Entity>::WHERE(_::{kind}::EQ(kind))::ORDER<Asc>(_::{name})
    RETURN entities

QUERY EntitiesOfKinds(kinds: [String], limit: U32) =>
    entities <- N<Entity>::WHERE(_::{kind}::IS_IN(kinds))::RANGE(0, limit)
    RETURN entities

QUERY PeopleAndPlaces() =>
    entities <- N<Entity>::WHERE(_::{kind}::IS_IN(["person", "place"]))::{name, kind}
    RETURN entities

QUERY EntitiesByNames(names: [String]) =>
    entities <- N<Entity>::WHERE(_::{name}::IS_IN(names))
    RETURN entities

QUERY RenameEntity(id: ID, name: String) =>
    entity <- N<Entity>(id)::UPDATE({name: name, updated_at: NOW})
    RETURN entity

QUERY SetConfidence(id: ID, confidence: F64) =>
    entity <- N<Entity>(id)::UPDATE({confidence: confidence})
    RETURN entity::{name, confidence}

QUERY SetAliases(name: String, aliases: [String]) =>
    entity <- N<Entity>({name: name})::UPDATE({aliases: aliases})
    RETURN entity

QUERY DescribeEntity(id: ID, description: String, mentions: U32) =>
    entity <- N<Entity>(id)::UPDATE({description: description, mentions: mentions})
    RETURN entity::ID

QUERY DeleteEntity(id: ID) =>
    DROP N<Entity>(id)
    RETURN "deleted"

QUERY DeleteEntitiesOfKind(kind: String) =>
    DROP N<Entity>::WHERE(_::{kind}::EQ(kind))
    RETURN NONE

QUERY CountEntities() =>
    total <- N<Entity>::COUNT
    RETURN total

QUERY KindHistogram() =>
    kinds <- N<Entity>::GROUP_BY(kind)
    RETURN kinds

QUERY EntitiesGroupedByKind() =>
    groups <- N<Entity>::AGGREGATE_BY(kind)
    RETURN groups

QUERY EntityIdsOfKind(kind: String) =>
    ids <- N<Entity>::WHERE(_::{kind}::EQ(kind))::ID
    RETURN ids

QUERY OldestOfKind(kind: String) =>
    entity <- N<Entity>::WHERE(_::{kind}::EQ(kind))::ORDER<Asc>(_::{created_at})::FIRST
    RETURN entity

QUERY EntitiesByAlias(alias: String) =>
    entities <- N<Entity>::WHERE(_::{aliases}::CONTAINS(alias))::{name, aliases}
    RETURN entities

QUERY EntitiesDescribedAs(word: String) =>
    entities <- N<Entity>::WHERE(_::{description}::CONTAINS(word))::{name, description}
    RETURN entities

QUERY DescribedEntities() =>
    entities <- N<Entity>::WHERE(_::{description}::NEQ(""))::RANGE(0, 100)
    RETURN entities

QUERY UncertainEntities(threshold: F64) =>
    entities <- N<Entity>::WHERE(OR(_::{confidence}::LT(threshold), _::{mentions}::EQ(0)))::{name, confidence, mentions}
    RETURN entities

QUERY UpdatedSince(since: Date) =>
    entities <- N<Entity>::WHERE(_::{updated_at}::GTE(since))::ORDER<Desc>(_::{updated_at})
    RETURN entities

QUERY CreatedInFirstHalf2024() =>
    entities <- N<Entity>::WHERE(AND(_::{created_at}::GTE("2024-01-01"), _::{created_at}::LT("2024-07-01T00:00:00Z")))
    RETURN entities

QUERY ConfidenceScores(kind: String) =>
    scores <- N<Entity>::WHERE(_::{kind}::EQ(kind))::{name, percent: ROUND(MUL(_::{confidence}, 100)), popularity: LOG10(ADD(_::{mentions}, 1))}
    RETURN scores

QUERY PublicEntity(id: ID) =>
    entity <- N<Entity>(id)::!{confidence, mentions, updated_at}
    RETURN entity

QUERY EntityWithCounts(id: ID) =>
    entity <- N<Entity>(id)::{relations: _::OutE<RelatedTo>::COUNT, sources: _::Out<MentionedIn>::COUNT, ..}
    RETURN entity

#[mcp]
QUERY EntityCard(id: ID) =>
    card <- N<Entity>(id)::|e|{
        name: e::{name},
        kind: e::{kind},
        related: e::Out<RelatedTo>::{name, kind},
        topics: e::Out<About>::{slug, title},
        sources: e::Out<MentionedIn>::ORDER<Desc>(_::{published})::RANGE(0, 5)::{title, url},
    }
    RETURN card

// ---------------------------------------------------------------- relations

QUERY Relate(from: ID, to: ID, relation: String, weight: F64, since: Date) =>
    edge <- AddE<RelatedTo>({relation: relation, weight: weight, since: since})::From(from)::To(to)
    RETURN edge

QUERY RelateDefault(from: ID, to: ID, relation: String) =>
    edge <- AddE<RelatedTo>({relation: relation, since: NOW})::From(from)::To(to)
    RETURN edge::ID

QUERY UpsertRelation(from: ID, to: ID, relation: String, weight: F64) =>
    edge <- N<Entity>(from)::OutE<RelatedTo>::WHERE(AND(_::ToN::ID::EQ(to), _::{relation}::EQ(relation)))::UpsertE({relation: relation, weight: weight, since: NOW})::From(from)::To(to)
    RETURN edge

QUERY RelationById(id: ID) =>
    relation <- E<RelatedTo>(id)::{relation, weight, from: _::FromN::{name}, to: _::ToN::{name}}
    RETURN relation

QUERY ReweightRelation(id: ID, weight: F64) =>
    relation <- E<RelatedTo>(id)::UPDATE({weight: weight})
    RETURN relation

QUERY DropRelation(id: ID) =>
    DROP E<RelatedTo>(id)
    RETURN NONE

QUERY DropRelationsOfType(id: ID, relation: String) =>
    DROP N<Entity>(id)::OutE<RelatedTo>::WHERE(_::{relation}::EQ(relation))
    RETURN "ok"

QUERY Neighbours(id: ID) =>
    out <- N<Entity>(id)::Out<RelatedTo>
    incoming <- N<Entity>(id)::In<RelatedTo>
    RETURN out, incoming

QUERY RelationsOf(id: ID) =>
    relations <- N<Entity>(id)::OutE<RelatedTo>::{relation, weight, target: _::ToN::{name}}
    RETURN relations

QUERY StrongRelations(id: ID, min: F64) =>
    relations <- N<Entity>(id)::OutE<RelatedTo>::WHERE(_::{weight}::GTE(min))::ORDER<Desc>(_::{weight})
    RETURN relations

QUERY RelatedByType(id: ID, relation: String) =>
    targets <- N<Entity>(id)::OutE<RelatedTo>::WHERE(_::{relation}::EQ(relation))::ToN::{name, kind}
    RETURN targets

QUERY TwoHop(id: ID) =>
    reach <- N<Entity>(id)::Out<RelatedTo>::Out<RelatedTo>::Dedup::WHERE(_::ID::NEQ(id))
    RETURN reach

QUERY CommonNeighbours(a: ID, b: ID) =>
    common <- N<Entity>(a, b)::INTERSECT(_::Out<RelatedTo>)::{name}
    RETURN common

QUERY OrphanEntities() =>
    orphans <- N<Entity>::WHERE(AND(!EXISTS(_::Out<RelatedTo>), !EXISTS(_::In<RelatedTo>)))
    RETURN orphans

QUERY HubEntities(min: I64) =>
    hubs <- N<Entity>::WHERE(_::Out<RelatedTo>::COUNT::GT(min))::{name, degree: _::Out<RelatedTo>::COUNT}
    RETURN hubs

QUERY RelatedToNamed(target: String) =>
    entities <- N<Entity>::WHERE(_::Out<RelatedTo>::{name}::EQ(target))::{name}
    RETURN entities

QUERY RelationEvidence(id: ID) =>
    total <- SUM(N<Entity>(id)::OutE<RelatedTo>::{evidence})
    average <- AVG(N<Entity>(id)::OutE<RelatedTo>::{weight})
    RETURN {evidence: total, average_weight: average}

QUERY RelationsSince(since: Date) =>
    relations <- E<RelatedTo>::WHERE(_::{since}::GT(since))::RANGE(0, 500)
    RETURN relations

QUERY PathBetween(from: ID, to: ID) =>
    paths <- N<Entity>(from)::ShortestPath<RelatedTo>::To(to)
    RETURN paths

QUERY StrongestPath(from: ID, to: ID) =>
    paths <- N<Entity>(from)::ShortestPathDijkstras<RelatedTo>(DIV(1.0, _::{weight}))::To(to)
    RETURN paths

QUERY ConfidentPath(from: ID, to: ID) =>
    paths <- N<Entity>(from)::ShortestPathDijkstras<RelatedTo>(SUB(2.0, MUL(_::FromN::{confidence}, _::ToN::{confidence})))::To(to)
    RETURN paths

QUERY MarkSameAs(keep: ID, duplicate: ID) =>
    AddE<SameAs>::From(duplicate)::To(keep)
    RETURN NONE

QUERY DuplicatesOf(id: ID) =>
    duplicates <- N<Entity>(id)::In<SameAs>::{name, confidence}
    RETURN duplicates

// ---------------------------------------------------------------- sources and mentions

QUERY AddSource(url: String, title: String, publisher: String, published: Date, trust: F32) =>
    source <- AddN<Source>({url: url, title: title, publisher: publisher, published: published, trust: trust})
    RETURN source

QUERY UpsertSource(url: String, title: String, publisher: String, published: Date) =>
    source <- N<Source>({url: url})::UpsertN({url: url, title: title, publisher: publisher, published: published, retrieved_at: NOW})
    RETURN source

QUERY SourceByUrl(url: String) =>
    source <- N<Source>({url: url})::{title, publisher, published, mentioned: _::In<MentionedIn>::{name}}
    RETURN source

QUERY SourcesByPublisher(publisher: String) =>
    sources <- N<Source>::WHERE(_::{publisher}::EQ(publisher))::ORDER<Desc>(_::{published})
    RETURN sources

QUERY RecentSources(since: Date, limit: U32) =>
    sources <- N<Source>::WHERE(_::{published}::GTE(since))::ORDER<Desc>(_::{published})::RANGE(0, limit)
    RETURN sources

QUERY TrustedSources(min: F32) =>
    sources <- N<Source>::WHERE(AND(_::{trust}::GTE(min), _::{published}::GT("2020-01-01")))::{url, trust}
    RETURN sources

QUERY RecordMention(entity: ID, source: ID, count: U32, sentiment: F64, snippet: String) =>
    mention <- AddE<MentionedIn>({count: count, sentiment: sentiment, snippet: snippet})::From(entity)::To(source)
    RETURN mention

QUERY SourcesFor(id: ID) =>
    sources <- N<Entity>(id)::Out<MentionedIn>::ORDER<Desc>(_::{published})::{title, url, published}
    RETURN sources

QUERY MentionStats(id: ID) =>
    mentions <- N<Entity>(id)::OutE<MentionedIn>
    RETURN {
        total: SUM(mentions::{count}),
        mood: AVG(mentions::{sentiment}),
        worst: MIN(mentions::{sentiment}),
        best: MAX(mentions::{sentiment}),
    }

QUERY NegativeMentions(id: ID) =>
    snippets <- N<Entity>(id)::OutE<MentionedIn>::WHERE(_::{sentiment}::LT(-0.25))::{snippet, sentiment, source: _::ToN::{url}}
    RETURN snippets

QUERY CoMentioned(id: ID) =>
    entities <- N<Entity>(id)::Out<MentionedIn>::In<MentionedIn>::Dedup::WHERE(_::ID::NEQ(id))::{name, kind}
    RETURN entities

QUERY Cite(from: ID, to: ID) =>
    citation <- AddE<Cites>::From(from)::To(to)
    RETURN citation

QUERY CitationsOf(url: String) =>
    cited <- N<Source>({url: url})::Out<Cites>::{title, url}
    citedBy <- N<Source>({url: url})::In<Cites>::COUNT
    RETURN cited, citedBy

QUERY MostCitedSources(limit: U32) =>
    sources <- N<Source>::ORDER<Desc>(_::In<Cites>::COUNT)::RANGE(0, limit)::{title, citations: _::In<Cites>::COUNT}
    RETURN sources

QUERY DeleteSource(url: String) =>
    DROP N<Source>({url: url})
    RETURN NONE

// ---------------------------------------------------------------- topics

QUERY AddTopic(slug: String, title: String, depth: U8) =>
    topic <- AddN<Topic>({slug: slug, title: title, depth: depth})
    RETURN topic

QUERY LinkSubtopic(child: ID, parent: ID) =>
    link <- AddE<SubtopicOf>::From(child)::To(parent)
    RETURN link

QUERY TopicTree(slug: String) =>
    tree <- N<Topic>({slug: slug})::{title, children: _::In<SubtopicOf>::{slug, title, grandchildren: _::In<SubtopicOf>::COUNT}}
    RETURN tree

QUERY RootTopics() =>
    roots <- N<Topic>::WHERE(!EXISTS(_::Out<SubtopicOf>))::ORDER<Asc>(_::{title})
    RETURN roots

QUERY TopicPath(from: ID, to: ID) =>
    paths <- N<Topic>(from)::ShortestPathBFS<SubtopicOf>::To(to)
    RETURN paths

QUERY TagEntity(entity: ID, topic: ID, score: F64) =>
    tag <- AddE<About>({score: score})::From(entity)::To(topic)
    RETURN tag

QUERY BulkTag(entities: [ID], topic: ID) =>
    FOR entity IN entities {
        AddE<About>::From(entity)::To(topic)
    }
    RETURN "tagged"

QUERY EntitiesAbout(slug: String, min: F64) =>
    entities <- N<Topic>({slug: slug})::InE<About>::WHERE(_::{score}::GTE(min))::FromN::{name, kind}
    RETURN entities

QUERY TopicsOf(id: ID) =>
    topics <- N<Entity>(id)::Out<About>::{slug, title}
    RETURN topics

QUERY UntaggedEntities() =>
    entities <- N<Entity>::WHERE(!EXISTS(_::Out<About>))::{name}
    RETURN entities

QUERY DeepTopics() =>
    topics <- N<Topic>::WHERE(_::{depth}::GTE(3))::GROUP_BY(depth)
    RETURN topics

// ---------------------------------------------------------------- embeddings and search

QUERY EmbedEntity(name: String, kind: String, vector: [F64]) =>
    embedding <- AddV<EntityEmbedding>(vector, {entity_name: name, kind: kind})
    RETURN embedding::ID

#[model("openai:text-embedding-3-large")]
QUERY EmbedEntityText(name: String, kind: String, text: String) =>
    embedding <- AddV<EntityEmbedding>(Embed(text), {entity_name: name, kind: kind, model: "text-embedding-3-large"})
    RETURN embedding::ID

QUERY UpsertEmbedding(name: String, kind: String, vector: [F64]) =>
    embedding <- V<EntityEmbedding>::WHERE(_::{entity_name}::EQ(name))::UpsertV(vector, {entity_name: name, kind: kind})
    RETURN embedding

QUERY EmbeddingById(id: ID) =>
    embedding <- V<EntityEmbedding>(id)::{entity_name, kind, model}
    RETURN embedding

QUERY DeleteEmbeddings(name: String) =>
    DROP V<EntityEmbedding>::WHERE(_::{entity_name}::EQ(name))
    RETURN NONE

#[mcp]
QUERY SimilarEntities(question: String, k: U32) =>
    hits <- SearchV<EntityEmbedding>(Embed(question), k)::{entity_name, kind, score}
    RETURN hits

QUERY SimilarToVector(vector: [F64]) =>
    hits <- SearchV<EntityEmbedding>(vector, 20)::WHERE(_::{kind}::EQ("person"))
    RETURN hits

QUERY DiverseSimilar(question: String) =>
    hits <- SearchV<EntityEmbedding>(Embed(question), 50)::RerankMMR(lambda: 0.6, distance: "cosine")::RANGE(0, 10)
    RETURN hits

QUERY KeywordEntities(text: String) =>
    entities <- SearchBM25<Entity>(text, 10)::{name, kind, description}
    RETURN entities

QUERY HybridEntitySearch(text: String, k: U32) =>
    byVector <- SearchV<EntityEmbedding>(Embed(text), k)
    byKeyword <- SearchBM25<EntityEmbedding>(text, k)
    fused <- RerankRRF(byVector, byKeyword, k: 60)
    RETURN fused::RANGE(0, 10)

// ---------------------------------------------------------------- ingest

QUERY IngestSource(url: String, title: String, publisher: String, published: Date, entities: [{name: String, kind: String, count: U32}]) =>
    source <- AddN<Source>({url: url, title: title, publisher: publisher, published: published})
    FOR {name, kind, count} IN entities {
        entity <- N<Entity>({name: name})::UpsertN({name: name, kind: kind})
        AddE<MentionedIn>({count: count})::From(entity)::To(source)
    }
    RETURN source

QUERY IngestRelations(relations: [{from: ID, to: ID, relation: String, weight: F64}]) =>
    FOR r IN relations {
        AddE<RelatedTo>({relation: r.relation, weight: r.weight, since: NOW})::From(r.from)::To(r.to)
    }
    RETURN NONE

QUERY IngestTaxonomy(topics: [{slug: String, title: String, children: [{slug: String, title: String}]}]) =>
    FOR topic IN topics {
        parent <- AddN<Topic>({slug: topic.slug, title: topic.title, depth: 0})
        FOR child IN topic.children {
            node <- AddN<Topic>({slug: child.slug, title: child.title, depth: 1})
            AddE<SubtopicOf>::From(node)::To(parent)
        }
    }
    RETURN "ok"

// ---------------------------------------------------------------- overview

QUERY Stats() =>
    RETURN {
        entities: N<Entity>::COUNT,
        sources: N<Source>::COUNT,
        topics: N<Topic>::COUNT,
        relations: E<RelatedTo>::COUNT,
        embeddings: V<EntityEmbedding>::COUNT,
    }

QUERY Ping() =>
    RETURN "ok"
