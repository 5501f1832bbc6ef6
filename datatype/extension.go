package datatype

import (
	"fmt"
	"sort"
	"sync"
)

// ExtensionType is a user-defined type: a name and serialized parameters
// on top of a storage type that carries the data. Extension arrays travel
// over IPC as their storage with the name and metadata in the field's
// custom metadata (ALKAID:extension:name / ALKAID:extension:metadata).
type ExtensionType interface {
	DataType
	// ExtensionName is the registered name, e.g. "arrow.uuid".
	ExtensionName() string
	// StorageType is the type of the underlying data.
	StorageType() DataType
	// Serialize returns the parameters as the metadata string.
	Serialize() string
	// Deserialize builds an instance from storage and serialized
	// parameters, checking both.
	Deserialize(storage DataType, serialized string) (ExtensionType, error)
	// ExtensionEqual reports whether other has the same parameters
	// (other has the same name; storage types are compared separately).
	ExtensionEqual(other ExtensionType) bool
}

var registry = struct {
	sync.RWMutex
	m map[string]ExtensionType
}{m: map[string]ExtensionType{}}

// RegisterExtension makes an extension type known to readers by its name.
// Registering a name twice is an error.
func RegisterExtension(t ExtensionType) error {
	registry.Lock()
	defer registry.Unlock()
	name := t.ExtensionName()
	if _, ok := registry.m[name]; ok {
		return fmt.Errorf("datatype: extension type %q already registered", name)
	}
	registry.m[name] = t
	return nil
}

// UnregisterExtension forgets the named extension type; it reports whether
// it was registered.
func UnregisterExtension(name string) bool {
	registry.Lock()
	defer registry.Unlock()
	_, ok := registry.m[name]
	delete(registry.m, name)
	return ok
}

// LookupExtension returns the registered extension type of the name.
func LookupExtension(name string) (ExtensionType, bool) {
	registry.RLock()
	defer registry.RUnlock()
	t, ok := registry.m[name]
	return t, ok
}

// RegisteredExtensions returns the registered names in sorted order.
func RegisteredExtensions() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ExtensionString is a helper for ExtensionType.String implementations:
// "extension<name, storage>".
func ExtensionString(t ExtensionType) string {
	return fmt.Sprintf("extension<%s, %s>", t.ExtensionName(), t.StorageType())
}

// StorageOf returns t's storage type if t is an extension type, else t.
func StorageOf(t DataType) DataType {
	for {
		e, ok := t.(ExtensionType)
		if !ok {
			return t
		}
		t = e.StorageType()
	}
}
