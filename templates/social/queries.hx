// ---- writes

QUERY AddUser(handle: String, name: String, city: String, age: U32) =>
    user <- AddN<User>({handle: handle, name: name, city: city, age: age})
    RETURN user

QUERY Follow(from: ID, to: ID, weight: F64) =>
    follows <- AddE<Follows>({weight: weight})::From(from)::To(to)
    RETURN follows

QUERY WritePost(author: ID, title: String, body: String) =>
    post <- AddN<Post>({title: title, body: body})
    wrote <- AddE<Wrote>::From(author)::To(post)
    RETURN post

QUERY RenameUser(id: ID, name: String) =>
    user <- N<User>(id)::UPDATE({name: name})
    RETURN user

// ---- reads

QUERY GetUser(id: ID) =>
    user <- N<User>(id)
    RETURN user

QUERY UserByHandle(handle: String) =>
    user <- N<User>({handle: handle})
    RETURN user

QUERY UsersInCity(city: String) =>
    users <- N<User>::WHERE(_::{city}::EQ(city))
    RETURN users

QUERY ListUsers(start: U32, end: U32) =>
    users <- N<User>::ORDER<Asc>(_::{handle})::RANGE(start, end)
    RETURN users

QUERY CountUsers() =>
    total <- N<User>::COUNT
    RETURN total

QUERY Following(id: ID) =>
    users <- N<User>(id)::Out<Follows>
    RETURN users

QUERY Followers(id: ID) =>
    users <- N<User>(id)::In<Follows>
    RETURN users

QUERY FollowEdges(id: ID) =>
    outgoing <- N<User>(id)::OutE<Follows>
    incoming <- N<User>(id)::InE<Follows>
    RETURN outgoing, incoming

QUERY FollowEnds(edge: ID) =>
    follower <- E<Follows>(edge)::FromN
    followed <- E<Follows>(edge)::ToN
    RETURN follower, followed

QUERY FriendsOfFriends(id: ID) =>
    users <- N<User>(id)::Out<Follows>::Out<Follows>
    RETURN users

QUERY OldestFollowed(id: ID) =>
    user <- N<User>(id)::Out<Follows>::ORDER<Desc>(_::{age})::FIRST
    RETURN user

QUERY AdultsInOrder(min_age: U32) =>
    users <- N<User>::WHERE(_::{age}::GTE(min_age))::ORDER<Asc>(_::{age})
    RETURN users

QUERY UsersByCity() =>
    groups <- N<User>::GROUP_BY(city)
    RETURN groups

QUERY UsersByCityAndAge() =>
    groups <- N<User>::AGGREGATE_BY(city, age)
    RETURN groups

QUERY CountByCity() =>
    groups <- N<User>::COUNT::GROUP_BY(city)
    RETURN groups

QUERY PostsOf(id: ID) =>
    posts <- N<User>(id)::Out<Wrote>::ORDER<Desc>(_::{created})
    RETURN posts

QUERY FewestHops(from: ID, to: ID) =>
    paths <- N<User>(from)::ShortestPath<Follows>::To(to)
    RETURN paths

QUERY CheapestRoute(from: ID, to: ID) =>
    paths <- N<User>(from)::ShortestPathDijkstras<Follows>(_::{weight})::To(to)
    RETURN paths
