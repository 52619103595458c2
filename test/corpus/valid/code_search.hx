// A code-search service written the way HelixDB v2 projects are: repositories, files, chunks with
// embeddings, an import graph, and users who star and review.
N::Repo { UNIQUE INDEX slug: String, name: String, stars: I64 DEFAULT 0, created_at: Date DEFAULT NOW }
N::File { INDEX file_id: String, path: String, language: String, lines: I64 }
N::Dev { UNIQUE INDEX handle: String, name: String, karma: F64 DEFAULT 0.0 }
N::Topic { UNIQUE INDEX name: String }

V::ChunkEmbedding { content: String, start_line: I64, end_line: I64 }
V::ReviewEmbedding { body: String }

E::Contains { From: Repo, To: File }
E::Imports { From: File, To: File, Properties: { weight: F64 DEFAULT 1.0 } }
E::HasChunk { From: File, To: ChunkEmbedding }
E::Starred { From: Dev, To: Repo, Properties: { at: Date DEFAULT NOW } }
E::Wrote { From: Dev, To: ReviewEmbedding }
E::Reviews { From: ReviewEmbedding, To: File }
E::Maintains { From: Dev, To: Repo }
E::Tagged { From: Repo, To: Topic }
E::Follows { From: Dev, To: Dev, Properties: { since: Date DEFAULT NOW } }
E::Mentors { From: Dev, To: Dev, Properties: { hours: F64 } }

QUERY AddRepo(slug: String, name: String) =>
    repo <- AddN<Repo>({slug: slug, name: name})
    RETURN repo

QUERY AddFile(repo_id: ID, file_id: String, path: String, language: String, lines: I64) =>
    file <- AddN<File>({file_id: file_id, path: path, language: language, lines: lines})
    AddE<Contains>::From(repo_id)::To(file)
    RETURN file

QUERY AddChunk(file: ID, vector: [F64], content: String, start_line: I64, end_line: I64) =>
    chunk <- AddV<ChunkEmbedding>(vector, {content: content, start_line: start_line, end_line: end_line})
    AddE<HasChunk>::From(file)::To(chunk)
    RETURN chunk

QUERY AddChunkText(file: ID, content: String, start_line: I64, end_line: I64) =>
    chunk <- AddV<ChunkEmbedding>(Embed(content), {content: content, start_line: start_line, end_line: end_line})
    AddE<HasChunk>::From(file)::To(chunk)
    RETURN chunk

QUERY LinkImport(from: ID, to: ID, weight: F64) =>
    edge <- AddE<Imports>({weight: weight})::From(from)::To(to)
    RETURN edge

QUERY AddDev(handle: String, name: String) =>
    dev <- AddN<Dev>({handle: handle, name: name})
    RETURN dev

QUERY Star(dev: ID, repo: ID) =>
    AddE<Starred>::From(dev)::To(repo)
    RETURN NONE

QUERY Review(dev: ID, file: ID, body: String) =>
    review <- AddV<ReviewEmbedding>(Embed(body), {body: body})
    AddE<Wrote>::From(dev)::To(review)
    AddE<Reviews>::From(review)::To(file)
    RETURN review

// Search inside one file's chunks (gap C): exact, over what the traversal holds.
QUERY SearchFile(file: ID, query: [F64], k: I64) =>
    chunks <- N<File>(file)::Out<HasChunk>::SearchV<ChunkEmbedding>(query, k)
    RETURN chunks

QUERY SearchFileText(file: ID, question: String) =>
    chunks <- N<File>(file)::Out<HasChunk>::SearchV<ChunkEmbedding>(Embed(question), 5)::{content, start_line, end_line, score}
    RETURN chunks

QUERY SearchRepo(repo: ID, question: String, k: I64) =>
    chunks <- N<Repo>(repo)::Out<Contains>::Out<HasChunk>::SearchV<ChunkEmbedding>(Embed(question), k)
    RETURN chunks

QUERY SearchRepoByEdges(repo: ID, question: String) =>
    chunks <- N<Repo>(repo)::Out<Contains>::OutE<HasChunk>::ToV::SearchV<ChunkEmbedding>(Embed(question), 3)
    RETURN chunks

QUERY SearchMyReviews(dev: ID, question: String) =>
    reviews <- N<Dev>(dev)::Out<Wrote>::SearchV<ReviewEmbedding>(Embed(question), 3)::{body}
    RETURN reviews

QUERY SearchAll(question: String) =>
    chunks <- SearchV<ChunkEmbedding>(Embed(question), 10)
    RETURN chunks

// Hybrid ranking with a float k (gap D).
QUERY Hybrid(question: String, k: F64) =>
    by_vector <- SearchV<ChunkEmbedding>(Embed(question), 20)
    by_words <- SearchBM25<ChunkEmbedding>(question, 20)
    fused <- by_vector::RerankRRF(by_words, k: k)::RANGE(0, 5)
    RETURN fused

QUERY HybridDefault(question: String) =>
    by_vector <- SearchV<ChunkEmbedding>(Embed(question), 20)
    fused <- by_vector::RerankRRF(k: 60.5)
    RETURN fused

// Counts per group (gap E).
QUERY FilesPerLanguage() =>
    groups <- N<File>::COUNT::AGGREGATE_BY(language)
    RETURN groups

QUERY FilesPerLanguageGrouped() =>
    groups <- N<File>::COUNT::GROUP_BY(language)
    RETURN groups

QUERY FilesOfRepoPerLanguage(repo: ID) =>
    groups <- N<Repo>(repo)::Out<Contains>::COUNT::AGGREGATE_BY(language)
    RETURN groups

// Paths over any edge type (gap K) and their count (gap L).
QUERY HowConnected(from: ID, to: ID) =>
    paths <- N<Dev>(from)::ShortestPath::To(to)
    RETURN paths

QUERY HowManyRoutes(from: ID, to: ID) =>
    n <- N<Dev>(from)::ShortestPathBFS::To(to)::COUNT
    RETURN n

QUERY ImportChain(from: ID, to: ID) =>
    paths <- N<File>(from)::ShortestPathDijkstras<Imports>(_::{weight})::To(to)
    RETURN paths

QUERY ImportChainCount(from: ID, to: ID) =>
    n <- N<File>(from)::ShortestPath<Imports>::To(to)::COUNT
    RETURN n

QUERY CheapestMentorChain(from: ID, to: ID) =>
    paths <- N<Dev>(from)::ShortestPathDijkstras(_::{hours})::To(to)
    RETURN paths

// FIRST of a projected value (gap M).
QUERY ImportsOf(file: ID) =>
    imports <- N<File>(file)::OutE<Imports>::{weight, to_file_id: _::ToN::{file_id}::FIRST, to_path: _::ToN::{path}}
    RETURN imports

QUERY RepoSummary(repo: ID) =>
    summary <- N<Repo>(repo)::{
        name,
        first_file: _::Out<Contains>::{path}::FIRST,
        files: _::Out<Contains>::COUNT,
        maintainer: _::In<Maintains>::{handle}::FIRST
    }
    RETURN summary

QUERY ReviewsOfFile(file: ID) =>
    reviews <- N<File>(file)::In<Reviews>::{body, author: _::In<Wrote>::{handle}::FIRST}
    RETURN reviews

// The everyday queries around them.
QUERY RepoBySlug(slug: String) =>
    repo <- N<Repo>({slug: slug})
    RETURN repo

QUERY TopRepos() =>
    repos <- N<Repo>::ORDER<Desc>(_::{stars})::RANGE(0, 10)
    RETURN repos

QUERY BigFiles(min_lines: I64) =>
    files <- N<File>::WHERE(_::{lines}::GT(min_lines))::ORDER<Desc>(_::{lines})
    RETURN files

QUERY FollowDev(from: ID, to: ID) =>
    AddE<Follows>::From(from)::To(to)
    RETURN NONE

QUERY Mentor(from: ID, to: ID, hours: F64) =>
    AddE<Mentors>({hours: hours})::From(from)::To(to)
    RETURN NONE

QUERY StarredBy(dev: ID) =>
    repos <- N<Dev>(dev)::Out<Starred>::{name, slug}
    RETURN repos

QUERY DeleteFile(file: ID) =>
    DROP N<File>(file)::Out<HasChunk>
    DROP N<File>(file)
    RETURN NONE
