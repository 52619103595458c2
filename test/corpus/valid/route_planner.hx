// Route planner for a public-transport network: stops connected by line segments and walking
// links, lines run by operators, scheduled trips and travellers' bookings. Routing uses BFS,
// Dijkstra with weights computed from edge and endpoint properties, and A* with a stored
// heuristic. Every query here must be accepted by `strand check` (see test/corpus.test.ts).

N::Stop {
    UNIQUE INDEX code: String,
    name: String,
    lat: F64,
    lon: F64,
    INDEX zone: String,
    heuristic_km: F64 DEFAULT 0.0,
    accessible: Boolean DEFAULT true,
    elevation_m: I32 DEFAULT 0,
    platforms: U8 DEFAULT 1,
    facilities: [String],
}

N::Line {
    UNIQUE INDEX line_code: String,
    name: String,
    INDEX mode: String,
    color: String DEFAULT "#000000",
    active: Boolean DEFAULT true,
}

N::Operator {
    UNIQUE INDEX operator_name: String,
    country: String,
    rating: F32 DEFAULT 3.0,
}

N::Trip {
    UNIQUE INDEX trip_code: String,
    departs: Date,
    arrives: Date,
    capacity: U16,
    booked: U16 DEFAULT 0,
    cancelled: Boolean DEFAULT false,
}

N::Traveller {
    UNIQUE INDEX email: String,
    name: String,
    prefers_accessible: Boolean DEFAULT false,
}

E::Segment {
    From: Stop,
    To: Stop,
    Properties: {
        km: F64,
        minutes: F64,
        line_code: String,
        fare: F64 DEFAULT 0.0,
        toll: Boolean DEFAULT false,
        closed: Boolean DEFAULT false,
        grade: F64 DEFAULT 0.0,
    }
}

E::Walk { From: Stop, To: Stop, Properties: { meters: F64, stairs: Boolean DEFAULT false } }
E::Serves { From: Line, To: Stop, Properties: { sequence: U16 } }
E::OperatedBy UNIQUE { From: Line, To: Operator }
E::RunsOn { From: Trip, To: Line }
E::Booked { From: Traveller, To: Trip, Properties: { seats: U8 DEFAULT 1, booked_at: Date DEFAULT NOW, price: F64 } }
E::Favourite UNIQUE { From: Traveller, To: Stop, Properties: { nickname: String DEFAULT "" } }

V::StopDescription { stop_code: String, description: String }

// ---------------------------------------------------------------- stops

QUERY AddStop(code: String, name: String, lat: F64, lon: F64, zone: String, facilities: [String], elevation_m?: I32) =>
    stop <- AddN<Stop>({code: code, name: name, lat: lat, lon: lon, zone: zone, facilities: facilities, elevation_m: elevation_m})
    RETURN stop

QUERY UpsertStop(code: String, name: String, lat: F64, lon: F64, zone: String) =>
    stop <- N<Stop>({code: code})::UpsertN({code: code, name: name, lat: lat, lon: lon, zone: zone})
    RETURN stop

QUERY StopByCode(code: String) =>
    stop <- N<Stop>({code: code})
    RETURN stop

QUERY StopById(id: ID) =>
    stop <- N<Stop>(id)::{code, name, position: [_::{lat}, _::{lon}]}
    RETURN stop

QUERY StopsInZone(zone: String) =>
    stops <- N<Stop>::WHERE(_::{zone}::EQ(zone))::ORDER<Asc>(_::{name})::{code, name}
    RETURN stops

QUERY StopsInZones(zones: [String]) =>
    stops <- N<Stop>::WHERE(_::{zone}::IS_IN(zones))
    RETURN stops

QUERY StopsWithFacility(facility: String) =>
    stops <- N<Stop>::WHERE(_::{facilities}::CONTAINS(facility))::{code, facilities}
    RETURN stops

QUERY StopsNamed(fragment: String) =>
    stops <- N<Stop>::WHERE(_::{name}::CONTAINS(fragment))
    RETURN stops

QUERY AccessibleStops(zone: String) =>
    stops <- N<Stop>::WHERE(_::{zone}::EQ(zone))::WHERE(_::{accessible}::EQ(true))
    RETURN stops

QUERY StopsInBox(south: F64, west: F64, north: F64, east: F64) =>
    stops <- N<Stop>::WHERE(AND(_::{lat}::GTE(south), _::{lat}::LTE(north), _::{lon}::GTE(west), _::{lon}::LTE(east)))
    RETURN stops

QUERY StopsOutsideBox(south: F64, north: F64) =>
    stops <- N<Stop>::WHERE(!AND(_::{lat}::GTE(south), _::{lat}::LTE(north)))::COUNT
    RETURN stops

QUERY HighStops(min: I32) =>
    stops <- N<Stop>::WHERE(_::{elevation_m}::GT(min))::ORDER<Desc>(_::{elevation_m})
    RETURN stops

QUERY BelowSeaLevel() =>
    stops <- N<Stop>::WHERE(_::{elevation_m}::LT(-1))::{code, elevation_m}
    RETURN stops

QUERY DistanceFrom(lat: F64, lon: F64, zone: String) =>
    stops <- N<Stop>::WHERE(_::{zone}::EQ(zone))::{
        code,
        km: MUL(6371.0, MUL(2, ASIN(SQRT(ADD(
            POW(SIN(DIV(MUL(SUB(_::{lat}, lat), DIV(PI(), 180)), 2)), 2),
            MUL(MUL(COS(MUL(lat, DIV(PI(), 180))), COS(MUL(_::{lat}, DIV(PI(), 180)))), POW(SIN(DIV(MUL(SUB(_::{lon}, lon), DIV(PI(), 180)), 2)), 2))
        ))))),
    }
    RETURN stops

QUERY Bearing(id: ID, lat: F64, lon: F64) =>
    bearing <- N<Stop>(id)::{
        degrees: MUL(ATAN2(SUB(lon, _::{lon}), SUB(lat, _::{lat})), DIV(180, PI())),
        slope: ATAN(DIV(_::{elevation_m}, 1000)),
        tangent: TAN(DIV(PI(), 8)),
        arc: ACOS(0.5),
    }
    RETURN bearing

QUERY RenameStop(code: String, name: String) =>
    stop <- N<Stop>({code: code})::UPDATE({name: name})
    RETURN stop

QUERY SetHeuristic(id: ID, heuristic_km: F64) =>
    stop <- N<Stop>(id)::UPDATE({heuristic_km: heuristic_km})
    RETURN stop::{code, heuristic_km}

QUERY CloseStop(code: String) =>
    N<Stop>({code: code})::UPDATE({accessible: false})
    RETURN NONE

QUERY RemoveStop(id: ID) =>
    DROP N<Stop>(id)
    RETURN "removed"

QUERY StopsPerZone() =>
    zones <- N<Stop>::GROUP_BY(zone)
    RETURN zones

QUERY ZoneDirectory() =>
    zones <- N<Stop>::AGGREGATE_BY(zone)
    RETURN zones

QUERY Interchanges(min: I64) =>
    stops <- N<Stop>::WHERE(_::In<Serves>::COUNT::GTE(min))::{code, name, lines: _::In<Serves>::{line_code}}
    RETURN stops

QUERY DeadEnds() =>
    stops <- N<Stop>::WHERE(AND(!EXISTS(_::Out<Segment>), !EXISTS(_::Out<Walk>)))::ID
    RETURN stops

QUERY StopsByCodes(a: ID, b: ID, c: ID) =>
    stops <- N<Stop>(a, b, c)::{code}
    RETURN stops

QUERY ImportStops(stops: [{code: String, name: String, lat: F64, lon: F64, zone: String}]) =>
    FOR {code, name, lat, lon, zone} IN stops {
        AddN<Stop>({code: code, name: name, lat: lat, lon: lon, zone: zone})
    }
    RETURN N<Stop>::COUNT

// ---------------------------------------------------------------- segments and walks

QUERY AddSegment(from: ID, to: ID, km: F64, minutes: F64, line_code: String, fare: F64) =>
    segment <- AddE<Segment>({km: km, minutes: minutes, line_code: line_code, fare: fare})::From(from)::To(to)
    RETURN segment

QUERY UpsertSegment(from: ID, to: ID, line_code: String, km: F64, minutes: F64) =>
    segment <- N<Stop>(from)::OutE<Segment>::WHERE(AND(_::ToN::ID::EQ(to), _::{line_code}::EQ(line_code)))::UpsertE({km: km, minutes: minutes, line_code: line_code})::From(from)::To(to)
    RETURN segment

QUERY AddWalk(from: ID, to: ID, meters: F64, stairs: Boolean) =>
    walk <- AddE<Walk>({meters: meters, stairs: stairs})::From(from)::To(to)
    RETURN walk

QUERY SegmentById(id: ID) =>
    segment <- E<Segment>(id)::{km, minutes, from: _::FromN::{code}, to: _::ToN::{code}, speed: DIV(_::{km}, DIV(_::{minutes}, 60))}
    RETURN segment

QUERY CloseSegment(id: ID) =>
    segment <- E<Segment>(id)::UPDATE({closed: true})
    RETURN segment

QUERY Reprice(id: ID, fare: F64) =>
    segment <- E<Segment>(id)::UPDATE({fare: fare})
    RETURN segment::{fare}

QUERY RemoveSegment(id: ID) =>
    DROP E<Segment>(id)
    RETURN NONE

QUERY ClosedSegments() =>
    segments <- E<Segment>::WHERE(_::{closed}::EQ(true))::{line_code, from: _::FromN::{code}, to: _::ToN::{code}}
    RETURN segments

QUERY SteepSegments(max: F64) =>
    segments <- E<Segment>::WHERE(OR(_::{grade}::GT(max), _::{grade}::LT(MUL(-1, max))))
    RETURN segments

QUERY FastSegments(kmh: F64) =>
    segments <- E<Segment>::WHERE(GTE(DIV(_::{km}, DIV(_::{minutes}, 60)), kmh))::{line_code, km, minutes}
    RETURN segments

QUERY ShortHops() =>
    segments <- E<Segment>::WHERE(AND(LT(MUL(_::{km}, 1000), 500), NEQ(MOD(_::{minutes}, 1), 0.5)))::COUNT
    RETURN segments

QUERY Departures(stop: ID) =>
    departures <- N<Stop>(stop)::OutE<Segment>::WHERE(_::{closed}::EQ(false))::ORDER<Asc>(_::{minutes})::{line_code, minutes, to: _::ToN::{name}}
    RETURN departures

QUERY Arrivals(stop: ID) =>
    arrivals <- N<Stop>(stop)::InE<Segment>::{line_code, from: _::FromN::{name}}
    RETURN arrivals

QUERY Neighbours(stop: ID) =>
    byLine <- N<Stop>(stop)::Out<Segment>::Dedup::{code, name}
    onFoot <- N<Stop>(stop)::Out<Walk>::{code, name}
    RETURN byLine, onFoot

QUERY StepFreeWalks(stop: ID) =>
    walks <- N<Stop>(stop)::OutE<Walk>::WHERE(_::{stairs}::EQ(false))::ToN
    RETURN walks

QUERY TwoStopsAway(stop: ID) =>
    stops <- N<Stop>(stop)::Out<Segment>::Out<Segment>::Dedup::WHERE(_::ID::NEQ(stop))
    RETURN stops

QUERY SharedNeighbours(a: ID, b: ID) =>
    stops <- N<Stop>(a, b)::INTERSECT(_::Out<Segment>)::{code}
    RETURN stops

QUERY NetworkLength() =>
    RETURN {
        segments: E<Segment>::COUNT,
        km: SUM(E<Segment>::{km}),
        mean_minutes: AVG(E<Segment>::{minutes}),
        longest: MAX(E<Segment>::{km}),
        shortest: MIN(E<Segment>::{km}),
    }

QUERY SegmentsPerLine() =>
    lines <- E<Segment>::GROUP_BY(line_code)
    RETURN lines

QUERY ImportSegments(segments: [{from: ID, to: ID, km: F64, minutes: F64, line_code: String}]) =>
    FOR s IN segments {
        AddE<Segment>({km: s.km, minutes: s.minutes, line_code: s.line_code})::From(s.from)::To(s.to)
        AddE<Segment>({km: s.km, minutes: s.minutes, line_code: s.line_code})::From(s.to)::To(s.from)
    }
    RETURN "ok"

// ---------------------------------------------------------------- routing

QUERY FewestStops(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPath<Segment>::To(to)
    RETURN route

QUERY FewestStopsBFS(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathBFS<Segment>::To(to)
    RETURN route

QUERY ArriveFrom(to: ID, from: ID) =>
    route <- N<Stop>(to)::ShortestPath<Segment>::From(from)
    RETURN route

#[mcp]
QUERY ShortestDistance(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Segment>(_::{km})::To(to)
    RETURN route

QUERY FastestRoute(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Segment>(_::{minutes})::To(to)
    RETURN route

QUERY CheapestRoute(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Segment>(ADD(_::{fare}, 0.01))::To(to)
    RETURN route

QUERY TransferPenalty(from: ID, to: ID, penalty: F64) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Segment>(ADD(_::{minutes}, MUL(penalty, SUB(_::ToN::In<Serves>::COUNT, 1))))::To(to)
    RETURN route

QUERY FlattestRoute(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Segment>(ADD(_::{km}, ABS(SUB(_::ToN::{elevation_m}, _::FromN::{elevation_m}))))::To(to)
    RETURN route

QUERY StraightLineWeighted(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Segment>(SQRT(ADD(POW(SUB(_::ToN::{lat}, _::FromN::{lat}), 2), POW(SUB(_::ToN::{lon}, _::FromN::{lon}), 2))))::To(to)
    RETURN route

QUERY AStarRoute(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathAStar<Segment>(_::{km}, "heuristic_km")::To(to)
    RETURN route

QUERY AStarTimed(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathAStar<Segment>(DIV(_::{minutes}, 60.0), "heuristic_km")::To(to)
    RETURN route

QUERY WalkingRoute(from: ID, to: ID) =>
    route <- N<Stop>(from)::ShortestPathDijkstras<Walk>(MUL(_::{meters}, 1.0e-3))::To(to)
    RETURN route

QUERY RouteBoth(from: ID, to: ID) =>
    byTime <- N<Stop>(from)::ShortestPathDijkstras<Segment>(_::{minutes})::To(to)
    byHops <- N<Stop>(from)::ShortestPath<Segment>::To(to)
    RETURN {fastest: byTime, fewest: byHops}

QUERY RouteByCode(from: String, to: String) =>
    origin <- N<Stop>({code: from})::ID
    destination <- N<Stop>({code: to})::ID
    RETURN origin, destination

// ---------------------------------------------------------------- lines and operators

QUERY AddLine(line_code: String, name: String, mode: String, color: String) =>
    line <- AddN<Line>({line_code: line_code, name: name, mode: mode, color: color})
    RETURN line

QUERY AddOperator(operator_name: String, country: String) =>
    operator <- AddN<Operator>({operator_name: operator_name, country: country})
    RETURN operator

QUERY Operate(line: ID, operator: ID) =>
    AddE<OperatedBy>::From(line)::To(operator)
    RETURN NONE

QUERY ServeStop(line: ID, stop: ID, sequence: U16) =>
    serves <- AddE<Serves>({sequence: sequence})::From(line)::To(stop)
    RETURN serves

QUERY LineStops(line_code: String) =>
    stops <- N<Line>({line_code: line_code})::OutE<Serves>::ORDER<Asc>(_::{sequence})::{sequence, stop: _::ToN::{code, name}}
    RETURN stops

QUERY LinesAt(stop: ID) =>
    lines <- N<Stop>(stop)::In<Serves>::WHERE(_::{active}::EQ(true))::{line_code, name, color}
    RETURN lines

QUERY LinesOfMode(mode: String) =>
    lines <- N<Line>::WHERE(_::{mode}::EQ(mode))::{line_code, operator: _::Out<OperatedBy>::{operator_name}}
    RETURN lines

QUERY RailOrTram() =>
    lines <- N<Line>::WHERE(_::{mode}::IS_IN(["rail", "tram"]))::COUNT
    RETURN lines

QUERY LinesByOperator(operator_name: String) =>
    lines <- N<Operator>({operator_name: operator_name})::In<OperatedBy>::ORDER<Asc>(_::{line_code})
    RETURN lines

QUERY WellRatedOperators(min: F32) =>
    operators <- N<Operator>::WHERE(_::{rating}::GTE(min))::{operator_name, rating, lines: _::In<OperatedBy>::COUNT}
    RETURN operators

QUERY RateOperator(id: ID, rating: F32) =>
    operator <- N<Operator>(id)::UPDATE({rating: rating})
    RETURN operator

QUERY RetireLine(line_code: String) =>
    line <- N<Line>({line_code: line_code})::UPDATE({active: false})
    RETURN line

QUERY DeleteLine(id: ID) =>
    DROP N<Line>(id)::OutE<Serves>
    DROP N<Line>(id)
    RETURN NONE

QUERY LinesPerMode() =>
    modes <- N<Line>::GROUP_BY(mode)
    RETURN modes

QUERY LineCard(id: ID) =>
    card <- N<Line>(id)::|l|{
        code: l::{line_code},
        stops: l::Out<Serves>::COUNT,
        operator: l::Out<OperatedBy>::{operator_name, country},
        trips: l::In<RunsOn>::WHERE(_::{cancelled}::EQ(false))::COUNT,
    }
    RETURN card

// ---------------------------------------------------------------- trips and bookings

QUERY ScheduleTrip(line: ID, trip_code: String, departs: Date, arrives: Date, capacity: U16) =>
    trip <- AddN<Trip>({trip_code: trip_code, departs: departs, arrives: arrives, capacity: capacity})
    AddE<RunsOn>::From(trip)::To(line)
    RETURN trip

QUERY TripsOn(line: ID, from: Date, to: Date) =>
    trips <- N<Line>(line)::In<RunsOn>::WHERE(AND(_::{departs}::GTE(from), _::{departs}::LT(to), _::{cancelled}::EQ(false)))::ORDER<Asc>(_::{departs})
    RETURN trips

QUERY TripsOnChristmas() =>
    trips <- N<Trip>::WHERE(AND(_::{departs}::GTE("2025-12-25"), _::{departs}::LT("2025-12-26T00:00:00+00:00")))
    RETURN trips

QUERY NextTrip(line: ID, after: Date) =>
    trip <- N<Line>(line)::In<RunsOn>::WHERE(_::{departs}::GT(after))::ORDER<Asc>(_::{departs})::FIRST
    RETURN trip

QUERY TripLoad(trip_code: String) =>
    load <- N<Trip>({trip_code: trip_code})::{trip_code, load: DIV(_::{booked}, _::{capacity}), free: SUB(_::{capacity}, _::{booked})}
    RETURN load

QUERY FullTrips() =>
    trips <- N<Trip>::WHERE(_::{booked}::GTE(_::{capacity}))::{trip_code}
    RETURN trips

QUERY CancelTrip(trip_code: String) =>
    trip <- N<Trip>({trip_code: trip_code})::UPDATE({cancelled: true})
    RETURN trip

QUERY AddTraveller(email: String, name: String, prefers_accessible?: Boolean) =>
    traveller <- AddN<Traveller>({email: email, name: name, prefers_accessible: prefers_accessible})
    RETURN traveller

QUERY Book(traveller: ID, trip: ID, seats: U8, price: F64, booked: U16) =>
    booking <- AddE<Booked>({seats: seats, price: price})::From(traveller)::To(trip)
    N<Trip>(trip)::UPDATE({booked: booked})
    RETURN booking

QUERY BookMany(traveller: ID, bookings: [{trip: ID, seats: U8, price: F64}]) =>
    FOR {trip, seats, price} IN bookings {
        AddE<Booked>({seats: seats, price: price})::From(traveller)::To(trip)
    }
    RETURN "booked"

QUERY Itinerary(email: String) =>
    trips <- N<Traveller>({email: email})::OutE<Booked>::ORDER<Asc>(_::{booked_at})::{seats, price, trip: _::ToN::{trip_code, departs, arrives}}
    RETURN trips

QUERY Spend(traveller: ID) =>
    bookings <- N<Traveller>(traveller)::OutE<Booked>
    RETURN {bookings: bookings::COUNT, total: SUM(bookings::{price}), average: AVG(bookings::{price}), rounded: ROUND(SUM(bookings::{price}))}

QUERY Passengers(trip: ID) =>
    passengers <- N<Trip>(trip)::In<Booked>::{name, email}
    RETURN passengers

QUERY CancelBooking(traveller: ID, trip: ID) =>
    DROP N<Traveller>(traveller)::OutE<Booked>::WHERE(_::ToN::ID::EQ(trip))
    RETURN NONE

QUERY Favourite(traveller: ID, stop: ID, nickname: String) =>
    favourite <- AddE<Favourite>({nickname: nickname})::From(traveller)::To(stop)
    RETURN favourite

QUERY Favourites(traveller: ID) =>
    stops <- N<Traveller>(traveller)::OutE<Favourite>::{nickname, stop: _::ToN::{code, name, accessible}}
    RETURN stops

QUERY CommonFavourites(a: ID, b: ID) =>
    stops <- N<Traveller>(a, b)::INTERSECT(_::Out<Favourite>)
    RETURN stops

// ---------------------------------------------------------------- stop descriptions

QUERY DescribeStop(stop_code: String, description: String) =>
    vector <- AddV<StopDescription>(Embed(description), {stop_code: stop_code, description: description})
    RETURN vector

QUERY FindStopsLike(text: String) =>
    stops <- SearchV<StopDescription>(Embed(text), 5)::{stop_code, description, score}
    RETURN stops

QUERY FindStopsByKeyword(text: String) =>
    stops <- SearchBM25<Stop>(text, 5)::{code, name}
    RETURN stops
