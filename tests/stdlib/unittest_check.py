import unittest

class MathTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)

    def test_fail(self):
        self.assertAlmostEqual(0.1 + 0.2, 0.31, places=3)

    @unittest.skip("not now")
    def test_skip(self):
        pass

    def test_raises(self):
        with self.assertRaises(ZeroDivisionError):
            1 / 0

suite = unittest.defaultTestLoader.loadTestsFromTestCase(MathTest)
result = unittest.TestResult()
suite.run(result)
print(result.testsRun, len(result.failures), len(result.skipped), result.wasSuccessful())
print(result.failures[0][0].id(), result.failures[0][1].strip().splitlines()[-1])
