// The fixtures' contexts, typed: listeners get their parameter types from the event map.
type Context = HarnessContext;
type Ctx = HarnessContext;
type PayloadContext = HarnessPayloadContext;
