// The fixtures' contexts from a host that types `session/event`'s `data` as `unknown`: the
// mirrors keep their typed signatures, so a handler of one is contextually typed, but a
// rewrite that destructures `event.data` without a cast fails (TS2339).
type Context = HarnessUnknownDataContext;
type Ctx = HarnessUnknownDataContext;
type PayloadContext = HarnessUnknownDataPayloadContext;
