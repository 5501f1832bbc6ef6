package ipc

// Limits are the limits the decoder applies, zero fields of the
// [WithLimits] option replaced by [DefaultLimits]. A transport that frames
// messages itself (and calls [NewMessage] and [Decoder.DecodeMessage])
// checks the sizes of a message's parts against them.
func (d *Decoder) Limits() Limits { return d.cfg.limits }
