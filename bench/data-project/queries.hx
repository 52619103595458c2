// FOR-loop ingest over HTTP (bench/for-ingest.ts): a batch of edges per request.

QUERY AddLinks(links: [{from: ID, to: ID}]) =>
    FOR {from, to} IN links {
        AddE<Link>::From(from)::To(to)
    }
    RETURN "ok"

QUERY AddItems(items: [{group: String, name: String}]) =>
    FOR {group, name} IN items {
        AddN<Item>({group: group, name: name})
    }
    RETURN "ok"

QUERY ItemIds(group: String) =>
    items <- N<Item>({group: group})
    RETURN items::{id}
