package array

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/memory"
)

// TestValidationLevels runs data with one fault each through every level:
// a level sees the faults of its own level and those below, never those
// above, and ValidateNone sees none.
func TestValidationLevels(t *testing.T) {
	levels := []ValidationLevel{ValidateNone, ValidateStructure, ValidateSafe, ValidateFull}
	cases := []struct {
		name  string
		d     *Data
		first ValidationLevel // the lowest level that reports the fault; ValidateNone: valid data
		want  string
	}{
		{"valid", strs("", "a", "bc"), ValidateNone, ""},
		{"buffer too short", &Data{Type: datatype.Int32, Length: 4, Buffers: []*memory.Buffer{nil, memory.NewBuffer(make([]byte, 8))}},
			ValidateStructure, "array: buffer 1 (values) has 8 bytes, needs 16 for 4 slots at offset 0"},
		{"decreasing offsets", binData(datatype.String, "", []int32{0, 3, 1, 4}, "abcd"),
			ValidateSafe, "array: [1]: end offset 1 is before start offset 3"},
		{"bad UTF-8", strs("", "a", "\xff"),
			ValidateFull, `array: [1]: invalid UTF-8 "\xff"`},
	}
	for _, c := range cases {
		for _, l := range levels {
			err := Validate(c.d, l)
			if c.first == ValidateNone || l < c.first {
				require.NoError(t, err, "%s at %s", c.name, l)
				continue
			}
			require.EqualError(t, err, c.want, "%s at %s", c.name, l)
			require.ErrorIs(t, err, ErrInvalid)
			var ve *ValidationError
			require.True(t, errors.As(err, &ve), "%s at %s: %T", c.name, l, err)
		}
	}
}

// TestMakeWithChecksStructureAtLevelNone: an array is never made from
// data that fails the structural checks, whatever the level.
func TestMakeWithChecksStructureAtLevelNone(t *testing.T) {
	bad := &Data{Type: datatype.Int32, Length: 4, Buffers: []*memory.Buffer{nil, memory.NewBuffer(make([]byte, 8))}}
	for _, l := range []ValidationLevel{ValidateNone, ValidateStructure} {
		a, err := MakeWith(bad, ValidationOptions{Level: l})
		require.Nil(t, a)
		require.ErrorIs(t, err, ErrInvalid, "level %s", l)
	}
	a, err := MakeWith(strs("", "a", "\xff"), ValidationOptions{Level: ValidateSafe})
	require.NoError(t, err)
	require.Equal(t, 2, a.Len())
}

func TestValidationLevelBeyondFull(t *testing.T) {
	err := Validate(strs("", "a"), ValidateFull+1)
	require.ErrorIs(t, err, ErrNotSupported)
	require.EqualError(t, err, "array: not supported: validation level 4")
}

func TestValidationLevelString(t *testing.T) {
	for l, want := range map[ValidationLevel]string{
		ValidateNone: "none", ValidateStructure: "structure", ValidateSafe: "safe", ValidateFull: "full", 9: "ValidationLevel(9)",
	} {
		require.Equal(t, want, l.String())
	}
}
