/// The outbound event a route sends down its connection before it closes the connection's input to refuse a body
/// it will not read (413, 408, 503): ``RequestHeadWatcher`` then keeps the HTTP decoder's complaint about the body
/// cut short from becoming a second answer (`400 Bad Request`) after the refusal.
struct ServerClosesInput: Sendable {}
