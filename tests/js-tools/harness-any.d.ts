// The fixtures' contexts as `any`: no contextual typing, so an unannotated listener parameter
// fails `noImplicitAny` and only the annotations the code carries type it.
type Context = any;
type Ctx = any;
type PayloadContext = any;
