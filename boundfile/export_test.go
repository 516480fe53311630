package boundfile

// BakedClips returns how many baked clips a saved file holds (for the
// external tests).
func BakedClips(b []byte) (int, error) {
	d, err := decodePayload(b)
	if err != nil {
		return 0, err
	}
	return len(d.Baked), nil
}
