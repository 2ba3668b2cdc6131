from .module import Module
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .linear import Bilinear, Identity, LazyLinear, Linear
from .activation import (CELU, ELU, GELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh,
                         LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, Sigmoid, SiLU,
                         Softmax, Softmax2d, Softmin, Softplus, Softshrink, Softsign, Tanh, Tanhshrink,
                         Threshold)
from .distance import CosineSimilarity, PairwiseDistance
from .fold import Fold, Unfold
from .padding import *  # noqa: F401,F403
from . import padding as _padding
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d
from .convolution import Conv1d, ConvTranspose1d, ConvTranspose2d
from .pooling import AdaptiveAvgPool1d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d, MaxPool1d
from .normalization import (BatchNorm1d, BatchNorm2d, GroupNorm, InstanceNorm1d, InstanceNorm2d, LayerNorm,
                            LocalResponseNorm, RMSNorm)
from .sparse import Embedding, EmbeddingBag
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from .activation_attention import MultiheadAttention
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)
from .conv import AdaptiveAvgPool2d, AvgPool2d, Conv2d, Flatten, MaxPool2d, Unflatten
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, GaussianNLLLoss,
                   HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss,
                   MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PoissonNLLLoss, SmoothL1Loss,
                   SoftMarginLoss, TripletMarginLoss)

__all__ = [
    "Bilinear", "AlphaDropout", "EmbeddingBag", "LocalResponseNorm", "Module", "ModuleDict",
    "ModuleList", "ParameterDict", "ParameterList", "Sequential", "Identity", "Linear", "LazyLinear", "ELU",
    "GELU", "LeakyReLU", "LogSoftmax", "ReLU", "Sigmoid", "SiLU", "Softmax", "Softplus", "Tanh",
    "CELU", "GLU", "SELU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LogSigmoid",
    "Mish", "PReLU", "ReLU6", "Softmax2d", "Softmin", "Softshrink", "Softsign", "Tanhshrink",
    "Threshold", "CosineSimilarity", "PairwiseDistance", "PixelShuffle", "PixelUnshuffle",
    "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "Fold", "Unfold", *_padding.__all__,
    "Dropout", "Dropout1d", "Dropout2d", "Conv1d", "ConvTranspose1d", "ConvTranspose2d",
    "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AvgPool1d", "MaxPool1d",
    "MultiheadAttention", "TransformerEncoder", "TransformerEncoderLayer", "Transformer",
    "TransformerDecoder", "TransformerDecoderLayer", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell",
    "GRUCell", "AdaptiveAvgPool2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm",
    "InstanceNorm1d", "InstanceNorm2d", "RMSNorm", "Embedding", "AvgPool2d", "Conv2d", "Flatten",
    "MaxPool2d", "Unflatten", "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "L1Loss",
    "MSELoss", "NLLLoss", "HuberLoss", "KLDivLoss", "SmoothL1Loss", "CosineEmbeddingLoss",
    "GaussianNLLLoss", "HingeEmbeddingLoss", "MarginRankingLoss", "MultiLabelSoftMarginLoss",
    "MultiMarginLoss", "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss",
]
