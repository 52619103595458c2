// Social graph: users follow and block each other, write posts and comments, like posts, join
// groups, and get a feed and recommendations. Every query here must be accepted by
// `strand check` (see test/corpus.test.ts).

N::User {
    UNIQUE INDEX handle: String,
    INDEX city: String,
    display_name: String,
    age: U8,
    bio: String DEFAULT "",
    verified: Boolean DEFAULT false,
    joined: Date DEFAULT NOW,
    interests: [String],
    karma: I64 DEFAULT 0,
    last_seen: Date DEFAULT NOW,
}

N::Post {
    text: String,
    created: Date DEFAULT NOW,
    likes: U32 DEFAULT 0,
    INDEX visibility: String DEFAULT "public",
    tags: [String],
    edited: Boolean DEFAULT false,
}

N::Comment {
    text: String,
    created: Date DEFAULT NOW,
    score: I32 DEFAULT 0,
}

N::Group {
    UNIQUE INDEX slug: String,
    name: String,
    private: Boolean DEFAULT false,
    created: Date DEFAULT NOW,
}

E::Follows UNIQUE { From: User, To: User, Properties: { since: Date DEFAULT NOW, close: Boolean DEFAULT false, affinity: F64 DEFAULT 1.0 } }
E::Blocks UNIQUE { From: User, To: User, Properties: { reason: String DEFAULT "" } }
E::Posted { From: User, To: Post }
E::Likes UNIQUE { From: User, To: Post, Properties: { at: Date DEFAULT NOW } }
E::Wrote { From: User, To: Comment }
E::CommentOn { From: Comment, To: Post }
E::MemberOf UNIQUE { From: User, To: Group, Properties: { role: String DEFAULT "member", joined: Date DEFAULT NOW } }
E::Mentions { From: Post, To: User }
E::SharedIn { From: Post, To: Group }

V::PostVector { post_text: String, author: String }

// ---------------------------------------------------------------- users

QUERY SignUp(handle: String, display_name: String, age: U8, city: String, interests: [String], bio?: String) =>
    user <- AddN<User>({handle: handle, display_name: display_name, age: age, city: city, interests: interests, bio: bio})
    RETURN user

QUERY UserByHandle(handle: String) =>
    user <- N<User>({handle: handle})
    RETURN user

QUERY Profile(id: ID) =>
    profile <- N<User>(id)::{
        handle,
        name: display_name,
        uid: ID,
        followers: _::In<Follows>::COUNT,
        following: _::Out<Follows>::COUNT,
        posts: _::Out<Posted>::ORDER<Desc>(_::{created})::RANGE(0, 5)::{text, likes},
    }
    RETURN profile

QUERY PublicProfile(handle: String) =>
    profile <- N<User>({handle: handle})::!{age, last_seen, karma}
    RETURN profile

QUERY ProfileWithStats(id: ID) =>
    profile <- N<User>(id)::{posts: _::Out<Posted>::COUNT, groups: _::Out<MemberOf>::COUNT, ..}
    RETURN profile

QUERY ProfileCard(id: ID) =>
    card <- N<User>(id)::|u|{
        handle: u::{handle},
        city: u::{city},
        friends: u::Out<Follows>::WHERE(_::Out<Follows>::ID::EQ(u::ID))::{handle},
        groups: u::Out<MemberOf>::{name},
    }
    RETURN card

QUERY UsersInCity(city: String) =>
    users <- N<User>::WHERE(_::{city}::EQ(city))::ORDER<Asc>(_::{handle})::{handle, display_name}
    RETURN users

QUERY UsersInCities(cities: [String]) =>
    users <- N<User>::WHERE(_::{city}::IS_IN(cities))
    RETURN users

QUERY Adults(city: String) =>
    users <- N<User>::WHERE(_::{city}::EQ(city))::WHERE(_::{age}::GTE(18))
    RETURN users

QUERY AgeBand(min: U8, max: U8) =>
    users <- N<User>::WHERE(AND(_::{age}::GTE(min), _::{age}::LTE(max)))::COUNT
    RETURN users

QUERY UsersInterestedIn(interest: String) =>
    users <- N<User>::WHERE(_::{interests}::CONTAINS(interest))::{handle, interests}
    RETURN users

QUERY VerifiedOrPopular(min: I64) =>
    users <- N<User>::WHERE(OR(_::{verified}::EQ(true), _::{karma}::GT(min), _::In<Follows>::COUNT::GT(1000)))
    RETURN users

QUERY NewUsers(since: Date) =>
    users <- N<User>::WHERE(_::{joined}::GT(since))::ORDER<Desc>(_::{joined})::RANGE(0, 50)
    RETURN users

QUERY InactiveSince2023() =>
    users <- N<User>::WHERE(_::{last_seen}::LT("2023-01-01"))::ID
    RETURN users

QUERY UsersByCity() =>
    cities <- N<User>::GROUP_BY(city)
    RETURN cities

QUERY UsersByCityAndAge() =>
    groups <- N<User>::GROUP_BY(city, age)
    RETURN groups

QUERY CityDirectory() =>
    directory <- N<User>::AGGREGATE_BY(city)
    RETURN directory

QUERY UpdateBio(id: ID, bio: String) =>
    user <- N<User>(id)::UPDATE({bio: bio})
    RETURN user::{handle, bio}

QUERY Verify(handle: String) =>
    user <- N<User>({handle: handle})::UPDATE({verified: true})
    RETURN user

QUERY Seen(id: ID) =>
    N<User>(id)::UPDATE({last_seen: NOW})
    RETURN NONE

// Intentionally without RETURN: the one warning of this project.
QUERY Heartbeat(id: ID) =>
//    ^ W001
    N<User>(id)::UPDATE({last_seen: NOW})

QUERY SetKarma(id: ID, karma: I64) =>
    user <- N<User>(id)::UPDATE({karma: karma})
    RETURN user::{karma}

QUERY DeleteAccount(id: ID) =>
    user <- N<User>(id)
    DROP user::Out<Posted>
    DROP user::Out<Wrote>
    DROP user
    RETURN "bye"

QUERY UsersByIds(a: ID, b: ID) =>
    users <- N<User>(a, b)::{handle}
    RETURN users

QUERY KarmaStats() =>
    RETURN {
        total: SUM(N<User>::{karma}),
        mean: AVG(N<User>::{karma}),
        lowest: MIN(N<User>::{karma}),
        highest: MAX(N<User>::{karma}),
        users: N<User>::COUNT,
    }

// ---------------------------------------------------------------- follows and blocks

QUERY Follow(from: ID, to: ID) =>
    follow <- AddE<Follows>::From(from)::To(to)
    RETURN follow

QUERY FollowClose(from: ID, to: ID, affinity: F64) =>
    follow <- AddE<Follows>({close: true, affinity: affinity})::From(from)::To(to)
    RETURN follow

QUERY Unfollow(from: ID, to: ID) =>
    DROP N<User>(from)::OutE<Follows>::WHERE(_::ToN::ID::EQ(to))
    RETURN NONE

QUERY RefollowWithAffinity(from: ID, to: ID, affinity: F64) =>
    follow <- N<User>(from)::OutE<Follows>::WHERE(_::ToN::ID::EQ(to))::UpsertE({affinity: affinity})::From(from)::To(to)
    RETURN follow

QUERY Followers(id: ID) =>
    followers <- N<User>(id)::In<Follows>::{handle, display_name}
    RETURN followers

QUERY Following(id: ID, start: U32, end: U32) =>
    following <- N<User>(id)::Out<Follows>::ORDER<Asc>(_::{handle})::RANGE(start, end)
    RETURN following

QUERY CloseFriends(id: ID) =>
    friends <- N<User>(id)::OutE<Follows>::WHERE(_::{close}::EQ(true))::ToN
    RETURN friends

QUERY FollowedSince(id: ID, since: Date) =>
    follows <- N<User>(id)::OutE<Follows>::WHERE(_::{since}::GTE(since))::{since, who: _::ToN::{handle}}
    RETURN follows

QUERY FriendsOfFriends(id: ID) =>
    suggestions <- N<User>(id)::Out<Follows>::Out<Follows>::Dedup::WHERE(AND(_::ID::NEQ(id), !EXISTS(_::In<Blocks>)))::RANGE(0, 20)
    RETURN suggestions

QUERY MutualFollowers(a: ID, b: ID) =>
    mutual <- N<User>(a, b)::INTERSECT(_::In<Follows>)::{handle}
    RETURN mutual

QUERY FollowsBack(id: ID) =>
    fans <- N<User>(id)::In<Follows>::WHERE(!EXISTS(_::In<Follows>::WHERE(_::ID::EQ(id))))
    RETURN fans

QUERY FollowerCount(id: ID) =>
    count <- N<User>(id)::In<Follows>::COUNT
    RETURN count

QUERY Influencers(min: I64, limit: U32) =>
    users <- N<User>::WHERE(_::In<Follows>::COUNT::GTE(min))::ORDER<Desc>(_::In<Follows>::COUNT)::RANGE(0, limit)::{handle, followers: _::In<Follows>::COUNT}
    RETURN users

QUERY FollowsSomeoneIn(city: String) =>
    users <- N<User>::WHERE(_::Out<Follows>::{city}::EQ(city))::{handle}
    RETURN users

QUERY Block(from: ID, to: ID, reason: String) =>
    block <- AddE<Blocks>({reason: reason})::From(from)::To(to)
    DROP N<User>(from)::OutE<Follows>::WHERE(_::ToN::ID::EQ(to))
    RETURN block

QUERY Unblock(from: ID, to: ID) =>
    DROP N<User>(from)::OutE<Blocks>::WHERE(_::ToN::ID::EQ(to))
    RETURN "ok"

QUERY BlockedBy(id: ID) =>
    blockers <- N<User>(id)::In<Blocks>::ID
    RETURN blockers

QUERY DegreesOfSeparation(from: ID, to: ID) =>
    paths <- N<User>(from)::ShortestPath<Follows>::To(to)
    RETURN paths

QUERY ClosestByAffinity(from: ID, to: ID) =>
    paths <- N<User>(from)::ShortestPathDijkstras<Follows>(DIV(1, ADD(_::{affinity}, 0.001)))::To(to)
    RETURN paths

QUERY FollowAll(id: ID, targets: [ID]) =>
    FOR target IN targets {
        AddE<Follows>::From(id)::To(target)
    }
    RETURN N<User>(id)::Out<Follows>::COUNT

// ---------------------------------------------------------------- posts and comments

QUERY CreatePost(author: ID, text: String, tags: [String], visibility: String) =>
    post <- AddN<Post>({text: text, tags: tags, visibility: visibility})
    AddE<Posted>::From(author)::To(post)
    RETURN post

QUERY CreatePostMentioning(author: ID, text: String, mentioned: [ID]) =>
    post <- AddN<Post>({text: text})
    AddE<Posted>::From(author)::To(post)
    FOR user IN mentioned {
        AddE<Mentions>::From(post)::To(user)
    }
    RETURN post

QUERY EditPost(id: ID, text: String) =>
    post <- N<Post>(id)::UPDATE({text: text, edited: true})
    RETURN post

QUERY DeletePost(id: ID) =>
    DROP N<Post>(id)::In<CommentOn>
    DROP N<Post>(id)
    RETURN NONE

QUERY PostById(id: ID) =>
    post <- N<Post>(id)::{
        text,
        created,
        author: _::In<Posted>::{handle},
        likes: _::In<Likes>::COUNT,
        comments: _::In<CommentOn>::ORDER<Asc>(_::{created})::{text, by: _::In<Wrote>::{handle}},
    }
    RETURN post

QUERY PostsBy(author: ID) =>
    posts <- N<User>(author)::Out<Posted>::ORDER<Desc>(_::{created})
    RETURN posts

QUERY PublicPosts(limit: U32) =>
    posts <- N<Post>::WHERE(_::{visibility}::EQ("public"))::ORDER<Desc>(_::{created})::RANGE(0, limit)
    RETURN posts

QUERY PostsTagged(tag: String) =>
    posts <- N<Post>::WHERE(AND(_::{tags}::CONTAINS(tag), _::{visibility}::EQ("public")))
    RETURN posts

QUERY PostsMatching(word: String) =>
    posts <- N<Post>::WHERE(_::{text}::CONTAINS(word))::{text}
    RETURN posts

QUERY Feed(id: ID, limit: U32) =>
    feed <- N<User>(id)::Out<Follows>::Out<Posted>::WHERE(_::{visibility}::NEQ("private"))::ORDER<Desc>(_::{created})::RANGE(0, limit)::{text, created, likes, author: _::In<Posted>::{handle}}
    RETURN feed

QUERY FeedSince(id: ID, since: Date) =>
    feed <- N<User>(id)::Out<Follows>::Out<Posted>::WHERE(_::{created}::GT(since))
    RETURN feed

QUERY Like(user: ID, post: ID, likes: U32) =>
    like <- AddE<Likes>::From(user)::To(post)
    N<Post>(post)::UPDATE({likes: likes})
    RETURN like

QUERY Unlike(user: ID, post: ID) =>
    DROP N<User>(user)::OutE<Likes>::WHERE(_::ToN::ID::EQ(post))
    RETURN NONE

QUERY LikedBy(post: ID) =>
    users <- N<Post>(post)::In<Likes>::{handle}
    RETURN users

QUERY LikedByFriends(id: ID, post: ID) =>
    friends <- N<User>(id)::Out<Follows>::WHERE(EXISTS(_::Out<Likes>::WHERE(_::ID::EQ(post))))
    RETURN friends

QUERY TrendingPosts(since: Date) =>
    posts <- N<Post>::WHERE(AND(_::{created}::GTE(since), _::In<Likes>::COUNT::GT(10)))::ORDER<Desc>(_::{likes})::RANGE(0, 20)
    RETURN posts

QUERY HotScore(limit: U32) =>
    posts <- N<Post>::{text, hot: DIV(LOG10(MAX(_::{likes}, 1)), POW(ADD(_::In<CommentOn>::COUNT, 2), 1.5))}::RANGE(0, limit)
    RETURN posts

QUERY Controversial(ratio: F64) =>
    posts <- N<Post>::WHERE(GT(DIV(_::In<CommentOn>::COUNT, ADD(_::{likes}, 1)), ratio))::{text}
    RETURN posts

QUERY Comment(author: ID, post: ID, text: String) =>
    comment <- AddN<Comment>({text: text})
    AddE<Wrote>::From(author)::To(comment)
    AddE<CommentOn>::From(comment)::To(post)
    RETURN comment

QUERY Comments(post: ID) =>
    comments <- N<Post>(post)::In<CommentOn>::ORDER<Desc>(_::{score})::{text, score, author: _::In<Wrote>::{handle}}
    RETURN comments

QUERY VoteComment(id: ID, score: I32) =>
    comment <- N<Comment>(id)::UPDATE({score: score})
    RETURN comment

// Comment declares its own `score` (votes): keyword hits keep it, ranked by relevance (W003).
QUERY SearchComments(text: String) =>
    comments <- SearchBM25<Comment>(text, 20)::WHERE(_::{score}::GTE(0))::{text, score}
//              ^ W003
    RETURN comments

QUERY NegativeComments() =>
    comments <- N<Comment>::WHERE(_::{score}::LT(-5))::COUNT
    RETURN comments

QUERY DeleteComment(id: ID) =>
    DROP N<Comment>(id)
    RETURN NONE

QUERY MentionsOf(id: ID) =>
    posts <- N<User>(id)::In<Mentions>::{text, by: _::In<Posted>::{handle}}
    RETURN posts

QUERY PostsPerVisibility() =>
    groups <- N<Post>::GROUP_BY(visibility)
    RETURN groups

QUERY ImportPosts(author: ID, posts: [{text: String, tags: [String], comments: [{text: String}]}]) =>
    FOR post IN posts {
        node <- AddN<Post>({text: post.text, tags: post.tags})
        AddE<Posted>::From(author)::To(node)
        FOR {text} IN post.comments {
            comment <- AddN<Comment>({text: text})
            AddE<Wrote>::From(author)::To(comment)
            AddE<CommentOn>::From(comment)::To(node)
        }
    }
    RETURN "imported"

// ---------------------------------------------------------------- groups

QUERY CreateGroup(slug: String, name: String, private: Boolean, owner: ID) =>
    group <- AddN<Group>({slug: slug, name: name, private: private})
    AddE<MemberOf>({role: "owner"})::From(owner)::To(group)
    RETURN group

QUERY Join(user: ID, group: ID) =>
    membership <- AddE<MemberOf>::From(user)::To(group)
    RETURN membership

QUERY SetRole(user: ID, group: ID, role: String) =>
    membership <- N<User>(user)::OutE<MemberOf>::WHERE(_::ToN::ID::EQ(group))::UpsertE({role: role})::From(user)::To(group)
    RETURN membership

QUERY Leave(user: ID, group: ID) =>
    DROP N<User>(user)::OutE<MemberOf>::WHERE(_::ToN::ID::EQ(group))
    RETURN NONE

QUERY GroupBySlug(slug: String) =>
    group <- N<Group>({slug: slug})::{name, private, members: _::In<MemberOf>::COUNT, admins: _::InE<MemberOf>::WHERE(_::{role}::IS_IN(["owner", "admin"]))::FromN::{handle}}
    RETURN group

QUERY GroupsOf(user: ID) =>
    groups <- N<User>(user)::Out<MemberOf>::WHERE(_::{private}::EQ(false))::{slug, name}
    RETURN groups

QUERY SharePost(post: ID, group: ID) =>
    AddE<SharedIn>::From(post)::To(group)
    RETURN "shared"

QUERY GroupFeed(group: ID) =>
    posts <- N<Group>(group)::In<SharedIn>::ORDER<Desc>(_::{created})::RANGE(0, 30)
    RETURN posts

QUERY CommonGroups(a: ID, b: ID) =>
    groups <- N<User>(a, b)::INTERSECT(_::Out<MemberOf>)::{name}
    RETURN groups

QUERY MembersByRole(group: ID) =>
    roles <- N<Group>(group)::InE<MemberOf>::GROUP_BY(role)
    RETURN roles

QUERY RenameGroup(slug: String, name: String) =>
    group <- N<Group>({slug: slug})::UpsertN({slug: slug, name: name})
    RETURN group

QUERY DeleteGroup(slug: String) =>
    DROP N<Group>({slug: slug})
    RETURN NONE

// ---------------------------------------------------------------- search and recommendations

QUERY IndexPost(post_text: String, author: String) =>
    vector <- AddV<PostVector>(Embed(post_text), {post_text: post_text, author: author})
    RETURN vector::ID

QUERY SimilarPosts(text: String, k: U32) =>
    posts <- SearchV<PostVector>(Embed(text), k)::{post_text, author, score}
    RETURN posts

#[mcp]
QUERY SearchPosts(text: String) =>
    posts <- SearchBM25<Post>(text, 25)::{text, created}
    RETURN posts

QUERY SearchUsers(text: String) =>
    users <- SearchBM25<User>(text, 10)::{handle, display_name}
    RETURN users

QUERY RecommendPosts(text: String) =>
    close <- SearchV<PostVector>(Embed(text), 30)
    keyword <- SearchBM25<PostVector>(text, 30)
    ranked <- RerankRRF(close, keyword, k: 20)
    RETURN ranked

QUERY DiversePosts(vector: [F64]) =>
    posts <- SearchV<PostVector>(vector, 60)::RerankMMR(lambda: 0.3, distance: "dotproduct")::RANGE(0, 12)
    RETURN posts

QUERY Overview() =>
    users <- N<User>::COUNT
    posts <- N<Post>::COUNT
    groups <- N<Group>::COUNT
    RETURN users, posts, groups
