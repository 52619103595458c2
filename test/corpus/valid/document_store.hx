// Document store for retrieval-augmented generation: collections of documents split into ordered
// chunks, chunk embeddings for semantic search, BM25 for keywords, authors and cross references.
// The schema is versioned: the current schema is the highest version (schema::2), and a
// MIGRATION converts records stored under schema::1. Every query here must be accepted by
// `strand check` (see test/corpus.test.ts).

schema::1 {
    N::Document { UNIQUE INDEX path: String, title: String, body: String }
    N::Chunk { text: String, position: U32 }
    E::HasChunk { From: Document, To: Chunk }
}

schema::2 {
    N::Collection {
        UNIQUE INDEX name: String,
        description: String DEFAULT "",
        public: Boolean DEFAULT true,
        created: Date DEFAULT NOW,
    }

    N::Document {
        UNIQUE INDEX path: String,
        title: String,
        INDEX mime: String DEFAULT "text/plain",
        size_bytes: U64 DEFAULT 0,
        created: Date DEFAULT NOW,
        updated: Date DEFAULT NOW,
        tags: [String],
        version: U32 DEFAULT 1,
        INDEX language: String DEFAULT "en",
        checksum: String DEFAULT "",
    }

    N::Chunk {
        text: String,
        position: U32,
        token_count: U32 DEFAULT 0,
        start_offset: U64 DEFAULT 0,
        end_offset: U64 DEFAULT 0,
        heading: String DEFAULT "",
    }

    N::Author {
        UNIQUE INDEX email: String,
        name: String,
        orcid: String DEFAULT "",
    }

    E::InCollection UNIQUE { From: Document, To: Collection, Properties: { added: Date DEFAULT NOW } }
    E::HasChunk { From: Document, To: Chunk, Properties: { position: U32 } }
    E::NextChunk UNIQUE { From: Chunk, To: Chunk }
    E::AuthoredBy { From: Document, To: Author, Properties: { role: String DEFAULT "author", share: F32 DEFAULT 1.0 } }
    E::References { From: Document, To: Document, Properties: { anchor: String DEFAULT "", weight: F64 DEFAULT 1.0 } }
    E::Supersedes UNIQUE { From: Document, To: Document }
    E::EmbeddedAs UNIQUE { From: Chunk, To: ChunkEmbedding }

    V::ChunkEmbedding {
        text: String,
        doc_path: String,
        position: U32,
        collection: String DEFAULT "default",
    }
}

MIGRATION schema::1 => schema::2 {
    N::Document => _::{ path: path, title: _::{title}, version: 1, checksum: "" }
    N::Chunk => _::{ text, position, token_count: 0 AS U32 }
    E::HasChunk => _::{ Properties: { position: 0 } }
}

// ---------------------------------------------------------------- collections

QUERY CreateCollection(name: String, description: String, public?: Boolean) =>
    collection <- AddN<Collection>({name: name, description: description, public: public})
    RETURN collection

QUERY CollectionByName(name: String) =>
    collection <- N<Collection>({name: name})::{name, description, documents: _::In<InCollection>::COUNT}
    RETURN collection

QUERY PublicCollections() =>
    collections <- N<Collection>::WHERE(_::{public}::EQ(true))::ORDER<Asc>(_::{name})::{name, description}
    RETURN collections

QUERY DescribeCollection(name: String, description: String) =>
    collection <- N<Collection>({name: name})::UPDATE({description: description})
    RETURN collection

QUERY EnsureCollection(name: String) =>
    collection <- N<Collection>({name: name})::UpsertN({name: name})
    RETURN collection::ID

QUERY DropCollection(name: String) =>
    DROP N<Collection>({name: name})::In<InCollection>::Out<HasChunk>
    DROP N<Collection>({name: name})::In<InCollection>
    DROP N<Collection>({name: name})
    RETURN "dropped"

QUERY CollectionSizes() =>
    sizes <- N<Collection>::{name, documents: _::In<InCollection>::COUNT, bytes: SUM(_::In<InCollection>::{size_bytes})}
    RETURN sizes

// ---------------------------------------------------------------- documents

QUERY AddDocument(path: String, title: String, mime: String, size_bytes: U64, tags: [String], collection: ID) =>
    document <- AddN<Document>({path: path, title: title, mime: mime, size_bytes: size_bytes, tags: tags})
    AddE<InCollection>::From(document)::To(collection)
    RETURN document

QUERY UpsertDocument(path: String, title: String, checksum: String, version: U32) =>
    document <- N<Document>({path: path})::UpsertN({path: path, title: title, checksum: checksum, version: version, updated: NOW})
    RETURN document

QUERY DocumentByPath(path: String) =>
    document <- N<Document>({path: path})
    RETURN document

QUERY DocumentById(id: ID) =>
    document <- N<Document>(id)::!{checksum}
    RETURN document

QUERY DocumentsById(a: ID, b: ID, c: ID, d: ID) =>
    documents <- N<Document>(a, b, c, d)::{path, title}
    RETURN documents

QUERY DocumentMeta(id: ID) =>
    meta <- N<Document>(id)::{
        path,
        title,
        kilobytes: DIV(_::{size_bytes}, 1024),
        chunks: _::Out<HasChunk>::COUNT,
        tokens: SUM(_::Out<HasChunk>::{token_count}),
        authors: _::Out<AuthoredBy>::{name, email},
        collection: _::Out<InCollection>::{name},
    }
    RETURN meta

QUERY DocumentSummary(id: ID) =>
    summary <- N<Document>(id)::|d|{
        title: d::{title},
        first: d::OutE<HasChunk>::ORDER<Asc>(_::{position})::RANGE(0, 3)::ToN::{text},
        cited_by: d::In<References>::{path},
    }
    RETURN summary

QUERY DocumentWithCounts(path: String) =>
    document <- N<Document>({path: path})::{chunks: _::Out<HasChunk>::COUNT, references: _::Out<References>::COUNT, ..}
    RETURN document

QUERY DocumentsOfType(mime: String) =>
    documents <- N<Document>::WHERE(_::{mime}::EQ(mime))::ORDER<Desc>(_::{updated})
    RETURN documents

QUERY DocumentsInLanguages(languages: [String]) =>
    documents <- N<Document>::WHERE(_::{language}::IS_IN(languages))::{path, language}
    RETURN documents

QUERY DocumentsTagged(tag: String) =>
    documents <- N<Document>::WHERE(_::{tags}::CONTAINS(tag))
    RETURN documents

QUERY DocumentsTitled(word: String) =>
    documents <- N<Document>::WHERE(_::{title}::CONTAINS(word))::{path, title}
    RETURN documents

QUERY LargeDocuments(min: U64) =>
    documents <- N<Document>::WHERE(_::{size_bytes}::GT(min))::ORDER<Desc>(_::{size_bytes})::RANGE(0, 25)
    RETURN documents

QUERY PdfOrMarkdown() =>
    documents <- N<Document>::WHERE(OR(_::{mime}::EQ("application/pdf"), _::{mime}::EQ("text/markdown")))::COUNT
    RETURN documents

QUERY ChangedBetween(from: Date, to: Date) =>
    documents <- N<Document>::WHERE(AND(_::{updated}::GTE(from), _::{updated}::LTE(to)))
    RETURN documents

QUERY StaleDocuments() =>
    documents <- N<Document>::WHERE(AND(_::{updated}::LT("2023-06-30T23:59:59Z"), _::{version}::EQ(1)))::{path}
    RETURN documents

QUERY DocumentsWithoutChunks() =>
    documents <- N<Document>::WHERE(!EXISTS(_::Out<HasChunk>))::{path}
    RETURN documents

QUERY DocumentsPerMime() =>
    groups <- N<Document>::GROUP_BY(mime)
    RETURN groups

QUERY DocumentsPerLanguageAndMime() =>
    groups <- N<Document>::GROUP_BY(language, mime)
    RETURN groups

QUERY DocumentsByLanguage() =>
    groups <- N<Document>::AGGREGATE_BY(language)
    RETURN groups

QUERY RetagDocument(id: ID, tags: [String]) =>
    document <- N<Document>(id)::UPDATE({tags: tags, updated: NOW})
    RETURN document::{path, tags}

QUERY BumpVersion(id: ID, version: U32, checksum: String) =>
    document <- N<Document>(id)::UPDATE({version: version, checksum: checksum})
    RETURN document

QUERY DeleteDocument(id: ID) =>
    DROP N<Document>(id)::Out<HasChunk>
    DROP N<Document>(id)
    RETURN NONE

QUERY NewestDocument(collection: ID) =>
    document <- N<Collection>(collection)::In<InCollection>::ORDER<Desc>(_::{created})::FIRST
    RETURN document

QUERY DocumentsInCollection(collection: String, start: U32, end: U32) =>
    documents <- N<Collection>({name: collection})::In<InCollection>::ORDER<Asc>(_::{path})::RANGE(start, end)::{path, title}
    RETURN documents

QUERY MoveToCollection(document: ID, from: ID, to: ID) =>
    DROP N<Document>(document)::OutE<InCollection>::WHERE(_::ToN::ID::EQ(from))
    AddE<InCollection>::From(document)::To(to)
    RETURN "moved"

QUERY SharedCollections(a: ID, b: ID) =>
    collections <- N<Document>(a, b)::INTERSECT(_::Out<InCollection>)
    RETURN collections

// ---------------------------------------------------------------- chunks

QUERY AddChunk(document: ID, text: String, position: U32, token_count: U32, start_offset: U64, end_offset: U64) =>
    chunk <- AddN<Chunk>({text: text, position: position, token_count: token_count, start_offset: start_offset, end_offset: end_offset})
    AddE<HasChunk>({position: position})::From(document)::To(chunk)
    RETURN chunk

QUERY LinkChunks(previous: ID, next: ID) =>
    AddE<NextChunk>::From(previous)::To(next)
    RETURN NONE

QUERY ChunksOf(document: ID) =>
    chunks <- N<Document>(document)::OutE<HasChunk>::ORDER<Asc>(_::{position})::ToN::{text, position, heading}
    RETURN chunks

QUERY ChunkWindow(chunk: ID) =>
    before <- N<Chunk>(chunk)::In<NextChunk>::{text}
    current <- N<Chunk>(chunk)::{text}
    after <- N<Chunk>(chunk)::Out<NextChunk>::{text}
    RETURN before, current, after

QUERY ChunkContext(chunk: ID) =>
    context <- N<Chunk>(chunk)::{text, position, document: _::In<HasChunk>::{path, title}, next: _::Out<NextChunk>::{text}}
    RETURN context

QUERY ChunksMentioning(document: ID, needle: String) =>
    chunks <- N<Document>(document)::Out<HasChunk>::WHERE(_::{text}::CONTAINS(needle))::{position, text}
    RETURN chunks

QUERY ChunksUnderHeading(document: ID, headings: [String]) =>
    chunks <- N<Document>(document)::Out<HasChunk>::WHERE(_::{heading}::IS_IN(headings))
    RETURN chunks

QUERY ChunkSpan(document: ID, from: U32, to: U32) =>
    chunks <- N<Document>(document)::Out<HasChunk>::WHERE(AND(_::{position}::GTE(from), _::{position}::LT(to)))::ORDER<Asc>(_::{position})
    RETURN chunks

QUERY LongChunks(max: U32) =>
    chunks <- N<Chunk>::WHERE(_::{token_count}::GT(max))::{position, token_count, overflow: SUB(_::{token_count}, max)}
    RETURN chunks

QUERY ChunkStats(document: ID) =>
    chunks <- N<Document>(document)::Out<HasChunk>
    RETURN {
        chunks: chunks::COUNT,
        total: SUM(chunks::{token_count}),
        mean: AVG(chunks::{token_count}),
        smallest: MIN(chunks::{token_count}),
        largest: MAX(chunks::{token_count}),
    }

QUERY ChunkGeometry(chunk: ID) =>
    geometry <- N<Chunk>(chunk)::{
        length: SUB(_::{end_offset}, _::{start_offset}),
        pages: CEIL(DIV(SUB(_::{end_offset}, _::{start_offset}), 3000)),
        bucket: FLOOR(LOG(ADD(_::{token_count}, 1), 2)),
        parity: MOD(_::{position}, 2),
        magnitude: ABS(SUB(_::{token_count}, 512)),
    }
    RETURN geometry

QUERY RewriteChunk(id: ID, text: String, token_count: U32) =>
    chunk <- N<Chunk>(id)::UPDATE({text: text, token_count: token_count})
    RETURN chunk

QUERY SetHeading(id: ID, heading: String) =>
    N<Chunk>(id)::UPDATE({heading: heading})
    RETURN "ok"

QUERY DeleteChunk(id: ID) =>
    DROP N<Chunk>(id)
    RETURN NONE

QUERY ChunkChain(from: ID, to: ID) =>
    chain <- N<Chunk>(from)::ShortestPath<NextChunk>::To(to)
    RETURN chain

// ---------------------------------------------------------------- ingest

QUERY IngestDocument(path: String, title: String, collection: ID, chunks: [{text: String, position: U32, token_count: U32, vector: [F64]}]) =>
    document <- AddN<Document>({path: path, title: title})
    AddE<InCollection>::From(document)::To(collection)
    FOR {text, position, token_count, vector} IN chunks {
        chunk <- AddN<Chunk>({text: text, position: position, token_count: token_count})
        AddE<HasChunk>({position: position})::From(document)::To(chunk)
        embedding <- AddV<ChunkEmbedding>(vector, {text: text, doc_path: path, position: position})
        AddE<EmbeddedAs>::From(chunk)::To(embedding)
    }
    RETURN document

QUERY IngestCorpus(collection: ID, docs: [{path: String, title: String, tags: [String], chunks: [{text: String, position: U32, v: [F64]}]}]) =>
    FOR doc IN docs {
        document <- AddN<Document>({path: doc.path, title: doc.title, tags: doc.tags})
        AddE<InCollection>::From(document)::To(collection)
        FOR chunk IN doc.chunks {
            node <- AddN<Chunk>({text: chunk.text, position: chunk.position})
            AddE<HasChunk>({position: chunk.position})::From(document)::To(node)
            AddV<ChunkEmbedding>(chunk.v, {text: chunk.text, doc_path: doc.path, position: chunk.position})
        }
    }
    RETURN "ingested"

QUERY IngestAndEmbed(path: String, title: String, texts: [{text: String, position: U32}]) =>
    document <- AddN<Document>({path: path, title: title})
    FOR {text, position} IN texts {
        chunk <- AddN<Chunk>({text: text, position: position})
        AddE<HasChunk>({position: position})::From(document)::To(chunk)
        AddV<ChunkEmbedding>(Embed(text), {text: text, doc_path: path, position: position})
    }
    RETURN document::ID

QUERY Reembed(path: String, position: U32, text: String, vector: [F64]) =>
    embedding <- V<ChunkEmbedding>::WHERE(AND(_::{doc_path}::EQ(path), _::{position}::EQ(position)))::UpsertV(vector, {text: text, doc_path: path, position: position})
    RETURN embedding

QUERY DropEmbeddings(path: String) =>
    DROP V<ChunkEmbedding>::WHERE(_::{doc_path}::EQ(path))
    RETURN NONE

QUERY EmbeddingsOf(path: String) =>
    embeddings <- V<ChunkEmbedding>::WHERE(_::{doc_path}::EQ(path))::ORDER<Asc>(_::{position})::{position, text}
    RETURN embeddings

QUERY EmbeddingById(id: ID) =>
    embedding <- V<ChunkEmbedding>(id)
    RETURN embedding

QUERY EmbedChunk(chunk: ID, vector: [F64], path: String, position: U32) =>
    embedding <- AddV<ChunkEmbedding>(vector, {text: N<Chunk>(chunk)::{text}, doc_path: path, position: position})
    AddE<EmbeddedAs>::From(chunk)::To(embedding)
    RETURN embedding::ID

QUERY EmbeddingOfChunk(chunk: ID) =>
    embedding <- N<Chunk>(chunk)::OutE<EmbeddedAs>::ToV::{doc_path, position}
    RETURN embedding

QUERY ChunkOfEmbedding(id: ID) =>
    chunk <- V<ChunkEmbedding>(id)::In<EmbeddedAs>::{text, position}
    RETURN chunk

QUERY UnembeddedChunks(document: ID) =>
    chunks <- N<Document>(document)::Out<HasChunk>::WHERE(!EXISTS(_::Out<EmbeddedAs>))::{position}
    RETURN chunks

// ---------------------------------------------------------------- retrieval

#[mcp]
QUERY Retrieve(question: String, k: U32) =>
    hits <- SearchV<ChunkEmbedding>(Embed(question), k)::{text, doc_path, position, score}
    RETURN hits

#[model("gemini:text-embedding-004")]
QUERY RetrieveGemini(question: String) =>
    hits <- SearchV<ChunkEmbedding>(Embed(question), 8)
    RETURN hits

QUERY RetrieveInCollection(question: String, collection: String) =>
    hits <- SearchV<ChunkEmbedding>(Embed(question), 50)::WHERE(_::{collection}::EQ(collection))::RANGE(0, 10)
    RETURN hits

QUERY RetrieveChunks(question: String) =>
    chunks <- SearchV<ChunkEmbedding>(Embed(question), 10)::In<EmbeddedAs>::{text, position, document: _::In<HasChunk>::{path}}
    RETURN chunks

QUERY RetrieveByVector(vector: [F64], k: U32) =>
    hits <- SearchV<ChunkEmbedding>(vector, k)::{doc_path, position, score}
    RETURN hits

QUERY RetrieveLiteralVector() =>
    hits <- SearchV<ChunkEmbedding>([0.25, -0.5, 1e-3, 2.5E2], 3)
    RETURN hits

QUERY RetrieveDiverse(question: String) =>
    hits <- SearchV<ChunkEmbedding>(Embed(question), 40)::RerankMMR(lambda: 0.8)::RANGE(0, 10)
    RETURN hits

#[mcp]
QUERY KeywordChunks(text: String, limit: U32) =>
    chunks <- SearchBM25<Chunk>(text, limit)::{text, position, document: _::In<HasChunk>::{path}}
    RETURN chunks

QUERY KeywordDocuments(text: String) =>
    documents <- SearchBM25<Document>(text, 10)::{path, title}
    RETURN documents

QUERY HybridRetrieve(question: String) =>
    dense <- SearchV<ChunkEmbedding>(Embed(question), 40)
    sparse <- SearchBM25<ChunkEmbedding>(question, 40)
    fused <- RerankRRF(dense, sparse, k: 60)
    RETURN fused

QUERY HybridRetrieveChained(question: String) =>
    fused <- SearchV<ChunkEmbedding>(Embed(question), 40)::RerankRRF(SearchBM25<ChunkEmbedding>(question, 40))::RerankMMR(0.7, "cosine")::RANGE(0, 8)::{text, doc_path, score}
    RETURN fused

// ---------------------------------------------------------------- authors and references

QUERY AddAuthor(email: String, name: String, orcid?: String) =>
    author <- AddN<Author>({email: email, name: name, orcid: orcid})
    RETURN author

QUERY Attribute(document: ID, author: ID, role: String, share: F32) =>
    link <- AddE<AuthoredBy>({role: role, share: share})::From(document)::To(author)
    RETURN link

QUERY DocumentsOfAuthor(email: String) =>
    documents <- N<Author>({email: email})::In<AuthoredBy>::ORDER<Desc>(_::{created})::{path, title}
    RETURN documents

QUERY CoAuthors(email: String) =>
    authors <- N<Author>({email: email})::In<AuthoredBy>::Out<AuthoredBy>::Dedup::WHERE(_::{email}::NEQ(email))::{name, email}
    RETURN authors

QUERY PrimaryAuthors(document: ID) =>
    authors <- N<Document>(document)::OutE<AuthoredBy>::WHERE(AND(_::{role}::EQ("author"), _::{share}::GTE(0.5)))::ToN
    RETURN authors

QUERY Cite(from: ID, to: ID, anchor: String, weight: F64) =>
    reference <- AddE<References>({anchor: anchor, weight: weight})::From(from)::To(to)
    RETURN reference

QUERY ReferencesOf(document: ID) =>
    references <- N<Document>(document)::OutE<References>::{anchor, weight, target: _::ToN::{path, title}}
    RETURN references

QUERY MostReferenced(limit: U32) =>
    documents <- N<Document>::ORDER<Desc>(_::In<References>::COUNT)::RANGE(0, limit)::{path, citations: _::In<References>::COUNT}
    RETURN documents

QUERY ReferencePath(from: ID, to: ID) =>
    path <- N<Document>(from)::ShortestPathDijkstras<References>(DIV(1.0, _::{weight}))::To(to)
    RETURN path

QUERY ReplaceDocument(old: ID, path: String, title: String) =>
    replacement <- AddN<Document>({path: path, title: title})
    AddE<Supersedes>::From(replacement)::To(old)
    RETURN replacement

QUERY CurrentDocuments() =>
    documents <- N<Document>::WHERE(!EXISTS(_::In<Supersedes>))::COUNT
    RETURN documents

QUERY Escapes() =>
    RETURN {quote: "say \"hi\"", backslash: "C:\\docs", newline: "a\nb", accent: "caf\u00e9", tab: "a\tb", negative: -42, tiny: 1.5e-9}

QUERY StoreStats() =>
    RETURN [N<Document>::COUNT, N<Chunk>::COUNT, V<ChunkEmbedding>::COUNT]
