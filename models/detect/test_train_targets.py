"""The detector's training target: inset cores of touching and overlapping cards stay apart, and a
lone card's core lies CORE_INSET output pixels inside its outline."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402


class InsetCoreTest(unittest.TestCase):
    def test_a_lone_card_core_lies_the_inset_inside_its_outline(self):
        ids = np.zeros((60, 80), np.int32)
        ids[10:50, 20:50] = 1
        # Scene pixels at twice the output resolution: the inset is 2 x CORE_INSET scene pixels.
        core = train.inset_core(ids, 0.5)
        rows, cols = np.nonzero(core)
        inset = 2 * train.CORE_INSET
        self.assertAlmostEqual(rows.min() - 10, inset, delta=1)
        self.assertAlmostEqual(49 - rows.max(), inset, delta=1)
        self.assertAlmostEqual(cols.min() - 20, inset, delta=1)
        self.assertAlmostEqual(49 - cols.max(), inset, delta=1)

    def test_touching_cards_cores_are_twice_the_inset_apart(self):
        ids = np.zeros((60, 100), np.int32)
        ids[10:50, 10:50] = 1
        ids[10:50, 50:90] = 2
        core = train.inset_core(ids, 1.0)
        row = core[30]
        gap = np.nonzero(row[50 - 4:50 + 4] == 0)[0]
        self.assertGreaterEqual(len(gap), int(2 * train.CORE_INSET))
        self.assertTrue(row[30] and row[70])

    def test_a_card_on_another_cuts_the_lower_cards_core_around_it(self):
        ids = np.zeros((80, 80), np.int32)
        ids[10:70, 10:70] = 1
        ids[30:50, 30:50] = 2
        core = train.inset_core(ids, 1.0)
        # Nothing of either core within the inset of the upper card's edge.
        self.assertFalse(core[30 - 1:30 + 2, 35:45].any())
        self.assertTrue(core[40, 40] and core[20, 20])

    def test_the_frame_edge_is_an_edge_too(self):
        ids = np.ones((40, 40), np.int32)
        core = train.inset_core(ids, 1.0)
        self.assertFalse(core[0].any() or core[:, 0].any())
        self.assertTrue(core[20, 20])


class SeamMapTest(unittest.TestCase):
    def test_the_gap_between_two_cores_is_the_seam_and_nothing_else(self):
        core = np.zeros((30, 40), np.uint8)
        core[2:12, 5:35] = 255
        core[16:26, 5:35] = 255
        seam = train.seam_map(core)
        # The four rows between the cores, along their common length.
        self.assertTrue(seam[12:16, 8:32].all())
        self.assertFalse(seam[core > 127].any())
        # Beyond the cores' ends and outside them nothing is a seam.
        self.assertFalse(seam[:, :2].any() or seam[:, 38:].any() or seam[0].any())

    def test_a_lone_core_has_no_seam(self):
        core = np.zeros((30, 40), np.uint8)
        core[5:25, 5:35] = 255
        self.assertFalse(train.seam_map(core).any())


class TfliteInitTest(unittest.TestCase):
    def test_the_shipped_model_loads_back_into_keras_and_gives_its_outputs(self):
        try:
            import tensorflow as tf
        except ImportError:
            self.skipTest("tensorflow is a training requirement (requirements.txt)")
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "card_detect.tflite")
        blocks = train.context_blocks_of(path)
        # The file's own model, and one with a context block more that starts as the file's model.
        for extra in (0, 1):
            model = train.build_model(context_blocks=blocks + extra)
            train.load_tflite_weights(model, path, fresh_context_blocks=extra)
            interp = tf.lite.Interpreter(model_path=path)
            interp.allocate_tensors()
            x = np.random.default_rng(3).random((1, train.IN_H, train.IN_W, 3)).astype(np.float32)
            interp.set_tensor(interp.get_input_details()[0]["index"], x)
            interp.invoke()
            want = interp.get_tensor(interp.get_output_details()[0]["index"])
            got = model(x, training=False).numpy()
            self.assertLess(float(np.abs(want - got).max()), 1e-4, f"{extra} fresh context blocks")


if __name__ == "__main__":
    unittest.main()
